package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.testing.TinyCeremony;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.io.R1csFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code powersoftau verify}, {@code zkey new} and {@code zkey verify} report their work to a
 * {@link StepProgress}: rising fractions of a total that the file sizes give (a unit a point, three
 * for a G2 point), ending at 1 once, reached by the work counted and not only at the end.
 */
class VerifyProgressTest {

    /** A G2 point's units: its field is Fp2. */
    private static final int G2 = 3;
    private static final int POWER = 4;

    @TempDir
    Path dir;


    @Test
    void powersOfTauVerifyCountsEveryPointOfEverySection() throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        PowersOfTau.newAccumulator(PairingCurve.BN254, POWER, p0);
        PowersOfTau.contribute(p0, p1, "first", "entropy", m -> { });
        List<Double> f = new CopyOnWriteArrayList<>();
        PtauVerifier.verify(p1, recorder(f));
        long n = 1L << POWER;
        // tau G1 (2n - 1 points), tau G2, alpha, beta (n each): the points before the last of a section, then the last
        long[] sections = {2 * n - 1, G2 * n, n, n};
        long total = sections[0] + sections[1] + sections[2] + sections[3];
        check(f, total, 2 * sections.length);
        long at = 0;
        for (long s : sections) {
            at += s;
            assertTrue(f.contains((double) at / total), "section ends at " + at + " of " + total + ": " + f);
        }

        Path prepared = dir.resolve("prepared.ptau");
        PhaseTwoPreparation.prepare(p1, prepared, m -> { });
        f.clear();
        PtauVerifier.verify(prepared, recorder(f));
        // and for each domain 2^p its powers and its Lagrange points: to 2^(power+1) for tau G1, 2^power the others
        long lagrange = 0;
        for (int p = 0; p <= POWER + 1; p++) {
            lagrange += 2L << p;
        }
        for (int p = 0; p <= POWER; p++) {
            lagrange += (G2 + 2) * (2L << p);
        }
        check(f, total + lagrange, 2 * sections.length + (POWER + 2) + 3 * (POWER + 1));
    }

    @Test
    void zkeyNewAndZkeyVerifyCountTheBasesTheTermsAndThePointsCombined() throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        Path ptau = dir.resolve("prepared.ptau");
        PowersOfTau.newAccumulator(PairingCurve.BN254, POWER, p0);
        PowersOfTau.contribute(p0, p1, "first", "entropy", m -> { });
        PhaseTwoPreparation.prepare(p1, ptau, m -> { });
        Path r1csFile = dir.resolve("cube.r1cs");
        Files.write(r1csFile, R1csFile.write(RecordingSystem.record(PairingCurve.BN254, TinyCeremony.CUBE)));
        R1cs cs = R1csFile.read(r1csFile);

        List<Double> f = new CopyOnWriteArrayList<>();
        Path k0 = dir.resolve("k0.zkey");
        InitialKey.create(r1csFile, ptau, k0, recorder(f));
        long n;
        long cPoints;
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(k0)) {
            n = key.domainSize;
            cPoints = key.nVars - key.nPublic - 1;
        }
        long a = cs.a().terms();
        long b = cs.b().terms();
        long c = cs.c().terms();
        long rows = cs.publicCount() + 1;   // w_0 .. w_nPublic, in A and in IC
        // the four Lagrange bases read; IC and C (every term once, and the public rows); H; A; B1; B2
        long bases = (3 + G2) * n;
        long newTotal = bases + (a + b + c + rows) + n + (a + rows) + b + G2 * b;
        check(f, newTotal, 4 + 6);
        // tau, alpha tau and beta tau in G1 first, for IC and C; tau in G2 only for B2, last
        assertTrue(f.contains((double) 3 * n / newTotal), f::toString);
        assertEquals((double) (newTotal - (G2 * n + G2 * b)) / newTotal, f.get(f.size() - 3), 1e-12, f::toString);

        Path k1 = dir.resolve("k1.zkey");
        PhaseTwo.contribute(k0, k1, "mine", "entropy", m -> { });
        f.clear();
        ZkeyVerifier.verify(r1csFile, ptau, k1, recorder(f));
        // then the fresh key's C and H points against the key's, two points combined for each
        check(f, newTotal + 2 * (cPoints + n), 4 + 6 + 2);
        assertTrue(f.contains((double) newTotal / (newTotal + 2 * (cPoints + n))), f::toString);
    }

    /** Rising fractions of {@code total} units, as many as {@code reports}, the last 1: the units counted reach it. */
    private static void check(List<Double> f, long total, int reports) {
        assertEquals(reports, f.size(), f::toString);
        assertEquals(1.0, f.getLast(), f::toString);
        for (int i = 0; i < f.size(); i++) {
            double units = f.get(i) * total;
            assertEquals(Math.rint(units), units, 1e-6, "not a whole number of units of " + total + ": " + f);
            assertTrue(f.get(i) > (i == 0 ? 0 : f.get(i - 1)), "not rising: " + f);
        }
    }

    private static StepProgress recorder(List<Double> fractions) {
        return new StepProgress() {
            @Override
            public void accept(String line) {
            }

            @Override
            public void done(double fraction) {
                fractions.add(fraction);
            }
        };
    }
}
