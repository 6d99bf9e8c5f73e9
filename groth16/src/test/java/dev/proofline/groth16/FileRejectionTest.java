package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.BinFile;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Truncated, corrupt and mismatched files are rejected with an error naming the file, the section
 * and the problem: never an index error, never a proof.
 */
class FileRejectionTest {

    @TempDir
    Path tmp;

    private static final Map<Integer, String> NO_NAMES = Map.of();

    /** Offset of a section's data in a file. */
    /** Where section {@code type}'s data starts in a circom-format binary file. */
    static long sectionOffset(Path file, String magic, int type) {
        try (Arena arena = Arena.ofConfined()) {
            return BinFile.open(file, magic, 2, NO_NAMES, arena).section(type).offset();
        }
    }

    private Path corrupt(Path original, String name, Consumer<byte[]> change) throws IOException {
        byte[] b = Files.readAllBytes(original);
        change.accept(b);
        Path p = tmp.resolve(name);
        Files.write(p, b);
        return p;
    }

    private Path truncated(Path original, String name, int length) throws IOException {
        Path p = tmp.resolve(name);
        Files.write(p, Arrays.copyOf(Files.readAllBytes(original), length));
        return p;
    }

    private static void putU32(byte[] b, long at, int v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt((int) at, v);
    }

    /** Runs {@code open}, expects a FormatException whose message names the file and holds every fragment. */
    private static FormatException rejects(Path file, Executable open, String... fragments) {
        FormatException e = assertThrows(FormatException.class, open);
        assertTrue(e.getMessage().contains(file.toString()), "names the file: " + e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "mentions \"" + f + "\": " + e.getMessage());
        }
        return e;
    }

    // ---------------------------------------------------------------- zkey

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void zkeyHeaderProblems(String curve) throws IOException {
        Path zkey = CircomFixtures.build(curve, "multiplier").zkey();
        Path empty = truncated(zkey, "empty.zkey", 0);
        rejects(empty, () -> ZkeyFile.open(empty), "header", "truncated");
        Path magic = corrupt(zkey, "magic.zkey", b -> b[3] = 'x');
        rejects(magic, () -> ZkeyFile.open(magic), "not a .zkey file");
        Path version = corrupt(zkey, "version.zkey", b -> putU32(b, 4, 7));
        rejects(version, () -> ZkeyFile.open(version), "unsupported .zkey version 7");
        Path plonk = corrupt(zkey, "plonk.zkey", b -> putU32(b, sectionOffset(zkey, "zkey", 1), 2));
        rejects(plonk, () -> ZkeyFile.open(plonk), "section 1 (header)", "not a Groth16 key");
        Path wtns = CircomFixtures.build(curve, "multiplier").wtns();
        rejects(wtns, () -> ZkeyFile.open(wtns), "not a .zkey file (magic \"wtns\"");
        Path missing = tmp.resolve("missing.zkey");
        rejects(missing, () -> ZkeyFile.open(missing), "no such file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void zkeyTruncatedAnywhereIsRejected(String curve) throws IOException {
        Path zkey = CircomFixtures.build(curve, "multiplier").zkey();
        long size = Files.size(zkey);
        for (long len : new long[] {11, 12, 20, 100, size / 3, size / 2, size - 100, size - 1}) {
            Path t = truncated(zkey, "t" + len + ".zkey", (int) len);
            rejects(t, () -> ZkeyFile.open(t), "truncated");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void zkeyBadPointsAndCoefficients(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path zkey = fx.zkey();
        int n8 = curve.equals("bn128") ? 32 : 48;
        long a = sectionOffset(zkey, "zkey", 5);
        long h = sectionOffset(zkey, "zkey", 9);
        // point 0 of A is the constant's: change its y by one (off the curve); a point of H likewise
        for (long at : new long[] {a, h + 2 * n8}) {
            Path p = corrupt(zkey, "offcurve" + at + ".zkey", b -> b[(int) (at + n8)] ^= 1);
            rejects(p, () -> ZkeyFile.open(p), "not on the curve");
        }
        Path offA = corrupt(zkey, "a.zkey", b -> b[(int) (a + n8)] ^= 1);
        rejects(offA, () -> ZkeyFile.open(offA), "section 5 (A)");
        // a coordinate not below q
        Path big = corrupt(zkey, "big.zkey", b -> Arrays.fill(b, (int) h, (int) h + n8, (byte) 0xff));
        rejects(big, () -> ZkeyFile.open(big), "section 9 (H)", "not below the field modulus");
        // alpha1 off the curve (in the Groth16 header, after n8q, q, n8r, r and three u32)
        long h2 = sectionOffset(zkey, "zkey", 2);
        long alpha = h2 + 4 + n8 + 4 + 32 + 12;
        Path al = corrupt(zkey, "alpha.zkey", b -> b[(int) (alpha + n8)] ^= 1);
        rejects(al, () -> ZkeyFile.open(al), "section 2 (Groth16 header)", "alpha1");
        // a coefficient naming a signal past nVars, or a matrix other than A or B
        long c4 = sectionOffset(zkey, "zkey", 4);
        Path sig = corrupt(zkey, "signal.zkey", b -> putU32(b, c4 + 4 + 8, 1 << 20));
        rejects(sig, () -> ZkeyFile.open(sig), "section 4 (coefficients)", "coefficient #0", "signal");
        Path mat = corrupt(zkey, "matrix.zkey", b -> putU32(b, c4 + 4, 2));
        rejects(mat, () -> ZkeyFile.open(mat), "section 4 (coefficients)", "matrix is 2");
        // the last coefficient's value equal to r (little-endian, all four words of it read), and its
        // constraint at the domain size
        int nCoef = ByteBuffer.wrap(Files.readAllBytes(zkey)).order(ByteOrder.LITTLE_ENDIAN).getInt((int) c4);
        long last = c4 + 4 + (long) (nCoef - 1) * ProvingKey.COEFFICIENT_BYTES;
        byte[] r = (curve.equals("bn128") ? PairingCurve.BN254 : PairingCurve.BLS12_381).fr().modulus().toByteArray();
        Path value = corrupt(zkey, "value.zkey", b -> {
            for (int i = 0; i < 32; i++) {
                b[(int) last + 12 + i] = i < r.length ? r[r.length - 1 - i] : 0;
            }
        });
        rejects(value, () -> ZkeyFile.open(value), "section 4 (coefficients)",
                "coefficient #" + (nCoef - 1) + ": value is not below r");
        long h2words = sectionOffset(zkey, "zkey", 2) + 4 + n8 + 4 + 32 + 8;   // nVars, nPublic, domainSize
        int domainSize = ByteBuffer.wrap(Files.readAllBytes(zkey)).order(ByteOrder.LITTLE_ENDIAN).getInt((int) h2words);
        Path constraint = corrupt(zkey, "constraint.zkey", b -> putU32(b, last + 4, domainSize));
        rejects(constraint, () -> ZkeyFile.open(constraint), "coefficient #" + (nCoef - 1),
                "constraint " + domainSize + " is not below the domain size " + domainSize);
        // a section whose size does not fit its contents: declare IC one byte shorter, the file keeps
        // its bytes, so the section table no longer adds up
        long ic = sectionOffset(zkey, "zkey", 3);
        Path icSize = corrupt(zkey, "ic.zkey", b -> ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN)
                .putLong((int) ic - 8, ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong((int) ic - 8) - 1));
        assertThrows(FormatException.class, () -> ZkeyFile.open(icSize));
    }

    // ---------------------------------------------------------------- wtns and mismatches

    @Test
    void witnessProblemsAndMismatches() throws IOException {
        Fixture bn = CircomFixtures.build("bn128", "multiplier");
        Fixture bls = CircomFixtures.build("bls12381", "multiplier");
        Path wtns = bn.wtns();
        Path t = truncated(wtns, "t.wtns", (int) Files.size(wtns) - 1);
        rejects(t, () -> WtnsFile.read(t), "truncated");
        long h1 = sectionOffset(wtns, "wtns", 1);
        Path prime = corrupt(wtns, "prime.wtns", b -> b[(int) h1 + 4] ^= 1);
        rejects(prime, () -> WtnsFile.read(prime), "section 1 (header)", "not the scalar field");
        long v = sectionOffset(wtns, "wtns", 2);
        Path big = corrupt(wtns, "big.wtns", b -> Arrays.fill(b, (int) v + 32, (int) v + 64, (byte) 0xff));
        rejects(big, () -> WtnsFile.read(big), "section 2 (witness values)", "value #1", "not below");

        // one value short: the file is consistent, the key does not fit it
        Witness w = WtnsFile.read(wtns);
        Witness shorter = new Witness(w.curve(), Arrays.copyOf(w.words(), w.words().length - Witness.WORDS));
        Path sh = tmp.resolve("short.wtns");
        Files.write(sh, WtnsFile.write(shorter));
        assertEquals(w.size() - 1, WtnsFile.read(sh).size());
        try (ProvingKey key = ZkeyFile.open(bn.zkey())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Prover.create().start(key, WtnsFile.read(sh)));
            assertTrue(e.getMessage().contains("expects " + key.variableCount()), e.getMessage());
            IllegalArgumentException curve = assertThrows(IllegalArgumentException.class,
                    () -> Prover.create().start(key, WtnsFile.read(bls.wtns())));
            assertTrue(curve.getMessage().contains("bls12381"), curve.getMessage());
        }
    }

    // ---------------------------------------------------------------- r1cs

    @Test
    void r1csProblems() throws IOException {
        Path r1cs = CircomFixtures.build("bn128", "multiplier").r1cs();
        long size = Files.size(r1cs);
        for (long len : new long[] {5, 40, size / 2, size - 1}) {
            Path t = truncated(r1cs, "t" + len + ".r1cs", (int) len);
            assertThrows(FormatException.class, () -> R1csFile.read(t));
        }
        long c = sectionOffset(r1cs, "r1cs", 2);
        // the first term's wire of constraint 0's A (after its term count)
        Path wire = corrupt(r1cs, "wire.r1cs", b -> putU32(b, c + 4, 1 << 24));
        rejects(wire, () -> R1csFile.read(wire), "section 2 (constraints)", "constraint #0 A", "wire");
        Path zkey = CircomFixtures.build("bn128", "multiplier").zkey();
        rejects(zkey, () -> R1csFile.read(zkey), "not a .r1cs file");
    }

    // ---------------------------------------------------------------- JSON

    @Test
    void jsonProblemsNameTheFileAndField() throws IOException {
        Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path notJson = tmp.resolve("bad.json");
        Files.writeString(notJson, "{\"pi_a\": [");
        rejects(notJson, () -> SnarkjsJson.readProof(notJson, null), "not valid JSON");
        String proof = Files.readString(fx.proof());
        Path offCurve = tmp.resolve("offcurve.json");
        Files.writeString(offCurve, proof.replaceFirst("\"pi_a\": \\[\n  \"([0-9]+)\"", "\"pi_a\": [\n  \"1$1\""));
        rejects(offCurve, () -> SnarkjsJson.readProof(offCurve, null), "pi_a");
        Path wrongCurve = tmp.resolve("curve.json");
        Files.writeString(wrongCurve, proof.replace("\"bn128\"", "\"bls12381\""));
        rejects(wrongCurve, () -> SnarkjsJson.readProof(wrongCurve, dev.proofline.algebra.PairingCurve.BN254), "curve");
        Path pub = tmp.resolve("pub.json");
        Files.writeString(pub, "[\"12\", \"x\"]");
        rejects(pub, () -> SnarkjsJson.readPublic(pub), "signal #1");
        Path vk = tmp.resolve("vk.json");
        Files.writeString(vk, Files.readString(fx.vk()).replace("\"IC\"", "\"ic\""));
        rejects(vk, () -> SnarkjsJson.readVerificationKey(vk), "IC", "missing");
    }
}
