package dev.proofline.r1cs.pce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.cs.ProvingAssignment;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PceFileTest {

    @TempDir
    Path tmp;

    private static final byte[] DIGEST = new byte[32];
    private static final byte[] OTHER = new byte[32];

    static {
        Arrays.fill(DIGEST, (byte) 7);
        Arrays.fill(OTHER, (byte) 8);
    }

    /** x_{i+1} = x_i * x_i + x_i, 200 steps, one input in the middle. */
    private static final dev.proofline.r1cs.cs.Circuit CIRCUIT = cs -> {
        var fr = cs.field();
        var x = cs.alloc("x0", () -> fr.fromLong(5));
        for (int i = 0; i < 200; i++) {
            final var prev = x;
            if (i == 100) {
                cs.allocInput("mid", () -> cs.value(prev));
            }
            x = cs.alloc("x" + i, () -> {
                long[] v = cs.value(prev);
                long[] r = fr.newElement();
                fr.sqr(v, 0, r, 0);
                fr.add(r, 0, v, 0, r, 0);
                return r;
            });
            cs.enforce("step", cs.lc().add(prev), cs.lc().add(prev), cs.lc().add(x).sub(prev));
        }
    };

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void roundTripAndRejections(PairingCurve curve) throws IOException {
        R1cs r1cs = RecordingSystem.record(curve, CIRCUIT);
        Path f = tmp.resolve("c.pce");
        PceFile.write(f, r1cs, DIGEST);
        Pce loaded = PceFile.read(f, curve, DIGEST);
        ProvingAssignment.Result enforce = ProvingAssignment.synthesize(curve, CIRCUIT);
        Pce.Evaluation e = loaded.evaluate(enforce.witness());
        assertArrayEquals(enforce.a(), e.a());
        assertArrayEquals(enforce.b(), e.b());
        assertArrayEquals(enforce.c(), e.c());

        PairingCurve other = curve == PairingCurve.BN254 ? PairingCurve.BLS12_381 : PairingCurve.BN254;
        assertMessage(assertThrows(FormatException.class, () -> PceFile.read(f, other, DIGEST)), f, "curve");
        assertMessage(assertThrows(FormatException.class, () -> PceFile.read(f, curve, OTHER)), f, "circuit digest");
        byte[] bytes = Files.readAllBytes(f);
        List<Integer> positions = new ArrayList<>(List.of(20, 60, bytes.length / 2, bytes.length - 40));
        for (int pos : positions) {
            byte[] bad = bytes.clone();
            bad[pos] ^= 0x10;
            Path g = tmp.resolve("bad" + pos + ".pce");
            Files.write(g, bad);
            assertMessage(assertThrows(FormatException.class, () -> PceFile.read(g, curve, DIGEST)), g, "corrupt");
        }
        Path t = tmp.resolve("short.pce");
        Files.write(t, Arrays.copyOf(bytes, bytes.length - 1));
        assertThrows(FormatException.class, () -> PceFile.read(t, curve, DIGEST));
    }

    private static void assertMessage(FormatException e, Path f, String fragment) {
        assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains(fragment), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aMismatchedFileFallsBackToExtractionAndIsRewritten(PairingCurve curve) throws IOException {
        Path f = tmp.resolve("c.pce");
        PceFile.write(f, RecordingSystem.record(curve, CIRCUIT), OTHER);
        AtomicInteger extractions = new AtomicInteger();
        List<String> reasons = new ArrayList<>();
        Pce p = PceFile.loadOrExtract(f, curve, DIGEST, () -> {
            extractions.incrementAndGet();
            return RecordingSystem.record(curve, CIRCUIT);
        }, reasons::add);
        assertEquals(1, extractions.get());
        assertTrue(reasons.get(0).contains("circuit digest"), reasons.get(0));
        assertEquals(200, p.r1cs().constraintCount());
        PceFile.loadOrExtract(f, curve, DIGEST, () -> {
            extractions.incrementAndGet();
            return RecordingSystem.record(curve, CIRCUIT);
        }, reasons::add);
        assertEquals(1, extractions.get(), "the rewritten file is used the second time");
    }
}
