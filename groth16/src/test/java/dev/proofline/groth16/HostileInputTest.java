package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.PceFile;
import dev.proofline.r1cs.wasm.CircomInput;
import dev.proofline.r1cs.wasm.WitnessException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile inputs of docs/reliability.md, read in-process: each is rejected with an error naming
 * the file and the problem, within bounds ten times the goal's (10 s, and 64 MiB allocated by the
 * reading thread where the goal counts RSS). Files of a gigabyte are sparse: they cost no disk.
 * The figures of the goal itself come from bench/hostile-inputs.sh, which runs the command line.
 */
class HostileInputTest {

    private static final long GIB = 1L << 30;
    private static final Path G16 = Node.repositoryRoot().resolve("groth16/src/test/resources/dev/proofline/groth16");
    private static final Path R1CS = Node.repositoryRoot().resolve("r1cs/src/test/resources/dev/proofline/r1cs");
    private static final Path ZKEY = G16.resolve("io/ZkeyFuzzTestInputs/zkey/bn128-multiplier.zkey");
    private static final Path WTNS = R1CS.resolve("io/WtnsFuzzTestInputs/wtns/bn128-multiplier.wtns");
    private static final Path R1CS_FILE = R1CS.resolve("io/R1csFuzzTestInputs/r1cs/bn128-multiplier.r1cs");
    private static final Path PCE = R1CS.resolve("pce/PceFuzzTestInputs/pce/bn128-multiplier.pce");

    @TempDir
    Path tmp;

    /** Asserts that {@code read} throws {@code type} within the bounds; returns its message. */
    private static String rejected(Class<? extends RuntimeException> type, Supplier<?> read) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = threads.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        RuntimeException e = assertThrows(type, read::get);
        long millis = (System.nanoTime() - start) / 1_000_000;
        long allocated = threads.getCurrentThreadAllocatedBytes() - bytes;
        assertTrue(millis < 10_000, "took " + millis + " ms: " + e.getMessage());
        assertTrue(allocated < 64L << 20, "allocated " + allocated + " bytes: " + e.getMessage());
        // the figures of docs/reliability.md ("in-process")
        String shown = e.getMessage().replaceFirst("^/[^:]*/", "");
        System.out.printf("rejected in %d ms, %.1f MiB allocated: %s%n", millis, allocated / 1048576.0,
                shown.length() > 110 ? shown.substring(0, 107) + "..." : shown);
        return e.getMessage();
    }

    private static void contains(String message, String... parts) {
        for (String p : parts) {
            assertTrue(message.contains(p), "\"" + message + "\" does not say \"" + p + "\"");
        }
    }

    /** A copy of {@code original} extended with zeros to {@code length} bytes (sparse). */
    private Path zeroTail(Path original, String name, long length) throws IOException {
        Path p = tmp.resolve(name);
        Files.copy(original, p);
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(length);
        }
        return p;
    }

    /** A copy of {@code original} with a little-endian integer of {@code width} bytes set at {@code offset}. */
    private Path patched(Path original, String name, int offset, long value, int width) throws IOException {
        byte[] b = Files.readAllBytes(original);
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        if (width == 4) {
            buf.putInt(offset, (int) value);
        } else {
            buf.putLong(offset, value);
        }
        Path p = tmp.resolve(name);
        Files.write(p, b);
        return p;
    }

    /** Where the data of the first section of {@code type} starts in an iden3 binary file. */
    private static int sectionData(Path file, int type) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 12;
        while (b.getInt(pos) != type) {
            pos += 12 + (int) b.getLong(pos + 4);
        }
        return pos + 12;
    }

    private Path text(String name, String content) throws IOException {
        return Files.writeString(tmp.resolve(name), content);
    }

    @Test
    void binaryFilesWithAGigabyteZeroTailAreRejectedAtTheirDeclaredEnd() throws IOException {
        Path zkey = zeroTail(ZKEY, "t.zkey", GIB);
        contains(rejected(FormatException.class, () -> ZkeyFile.open(zkey)), "t.zkey", "bytes after the last of the");
        Path wtns = zeroTail(WTNS, "t.wtns", GIB);
        contains(rejected(FormatException.class, () -> WtnsFile.read(wtns)), "t.wtns", "bytes after the last of the");
        Path r1cs = zeroTail(R1CS_FILE, "t.r1cs", GIB);
        contains(rejected(FormatException.class, () -> R1csFile.read(r1cs)), "t.r1cs", "bytes after the last of the");
        Path pce = zeroTail(PCE, "t.pce", GIB);
        contains(rejected(FormatException.class, () -> PceFile.read(pce, PairingCurve.BN254, null)), "t.pce",
                "the header's sizes need");
    }

    @Test
    void declaredCountsAndSizesBeyondTheFileAreRejected() throws IOException {
        Path sections = patched(ZKEY, "sections.zkey", 8, 0xFFFF_FFFFL, 4);
        contains(rejected(FormatException.class, () -> ZkeyFile.open(sections)), "sections.zkey", "4294967295 sections");
        Path size = patched(ZKEY, "size.zkey", 16, -1L, 8);
        contains(rejected(FormatException.class, () -> ZkeyFile.open(size)), "size.zkey", "truncated: declares");
        // the witness header (section 1): n8 (4 bytes), the prime (32), then the number of values
        Path values = patched(WTNS, "values.wtns", sectionData(WTNS, 1) + 4 + 32, 0x1FFF_FFFFL, 4);
        contains(rejected(FormatException.class, () -> WtnsFile.read(values)), "values.wtns", "witness values");
        // the r1cs header: n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels (8), then nConstraints
        Path constraints = patched(R1CS_FILE, "constraints.r1cs", sectionData(R1CS_FILE, 1) + 4 + 32 + 16 + 8,
                0x7FFF_FFFEL, 4);
        contains(rejected(FormatException.class, () -> R1csFile.read(constraints)), "constraints.r1cs",
                "nConstraints 2147483646 needs");
        Path terms = patched(PCE, "terms.pce", 68, Long.MAX_VALUE, 8);
        contains(rejected(FormatException.class, () -> PceFile.read(terms, PairingCurve.BN254, null)), "terms.pce",
                "out of range");
    }

    @Test
    void aNumberOfAMillionDigitsIsRejectedBeforeItIsConverted() throws IOException {
        String digits = "7".repeat(1_000_000);
        Path proof = text("proof.json", "{\"pi_a\": [\"" + digits + "\", \"2\", \"1\"], \"protocol\": \"groth16\"}");
        contains(rejected(FormatException.class, () -> SnarkjsJson.readProof(proof, PairingCurve.BN254)),
                "proof.json", "pi_a", "1000000 characters");
        Path signals = text("public.json", "[\"" + digits + "\"]");
        contains(rejected(FormatException.class, () -> SnarkjsJson.readPublic(signals)), "public.json",
                "signal #0", "1000000 characters");
        Path bare = text("bare.json", "[" + digits + "]");
        contains(rejected(FormatException.class, () -> SnarkjsJson.readPublic(bare)), "bare.json", "over a limit");
        Path input = text("input.json", "{\"a\": \"" + digits + "\"}");
        contains(rejected(WitnessException.class, () -> CircomInput.read(input)), "input.json", "'a'",
                "1000000 characters");
        Path exponent = text("exponent.json", "{\"a\": 1e999999999}");
        contains(rejected(WitnessException.class, () -> CircomInput.read(exponent)), "'a'", "1000000000 digits");
    }

    @Test
    void aStringOfFifteenMebibytesIsRefusedWithoutHoldingItWhole() throws IOException {
        Path signals = text("long-public.json", "[\"" + "7".repeat(15 << 20) + "\"]");
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        contains(rejected(FormatException.class, () -> SnarkjsJson.readPublic(signals)), "long-public.json",
                "over a limit", "String value length");
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // the file's bytes (15 MiB) and at most about a mebibyte of the string; it used to be held whole, as
        // growing text buffers and then the string (about 100 MiB of peak RSS in the command line)
        assertTrue(allocated < 24L << 20, "allocated " + allocated + " bytes");
    }

    @Test
    void deepAndLargeJsonIsRejected() throws IOException {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        Path signals = text("deep.json", deep);
        contains(rejected(FormatException.class, () -> SnarkjsJson.readPublic(signals)), "deep.json", "over a limit");
        Path vk = text("deep-vk.json", "{\"IC\": " + deep + "}");
        contains(rejected(FormatException.class, () -> SnarkjsJson.readVerificationKey(vk)), "deep-vk.json",
                "over a limit");
        Path input = text("deep-input.json", "{\"a\": " + deep + "}");
        contains(rejected(WitnessException.class, () -> CircomInput.read(input)), "deep-input.json", "over a limit");
        Path huge = zeroTail(text("huge.json", "[\"1\"]"), "huge-public.json", GIB);
        contains(rejected(FormatException.class, () -> SnarkjsJson.readPublic(huge)), "huge-public.json",
                "1073741824 bytes");
        Path hugeInput = zeroTail(text("huge-in.json", "{}"), "huge-input.json", GIB);
        contains(rejected(FormatException.class, () -> CircomInput.read(hugeInput)), "huge-input.json",
                "1073741824 bytes");
    }

    @Test
    void trailingGarbageAfterJsonIsRejected() throws IOException {
        Path signals = text("public.json", "[\"1\"] garbage");
        contains(rejected(FormatException.class, () -> SnarkjsJson.readPublic(signals)), "public.json", "not valid JSON");
        Path proof = text("proof.json", "{\"protocol\": \"groth16\"}{}");
        contains(rejected(FormatException.class, () -> SnarkjsJson.readProof(proof, PairingCurve.BN254)), "proof.json",
                "not valid JSON: more content after the JSON value");
        Path input = text("input.json", "{\"a\": 1} {\"b\": 2}");
        contains(rejected(WitnessException.class, () -> CircomInput.read(input)), "input.json",
                "not valid JSON: more content after the JSON value");
    }

    @Test
    void aDirectoryIsNamedAsADirectory() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("inputs"));
        for (Supplier<?> read : java.util.List.<Supplier<?>>of(() -> ZkeyFile.open(dir), () -> WtnsFile.read(dir),
                () -> R1csFile.read(dir), () -> PceFile.read(dir, PairingCurve.BN254, null),
                () -> SnarkjsJson.readPublic(dir), () -> SnarkjsJson.readProof(dir, PairingCurve.BN254),
                () -> SnarkjsJson.readVerificationKey(dir), () -> CircomInput.read(dir))) {
            contains(rejected(FormatException.class, read), dir.toString(), "is a directory");
        }
        contains(rejected(FormatException.class, () -> WtnsFile.read(tmp.resolve("absent.wtns"))), "absent.wtns",
                "no such file");
    }
}
