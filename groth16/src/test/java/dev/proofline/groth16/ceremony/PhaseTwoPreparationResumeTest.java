package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** prepare phase2 stopped midway: the next run on the same input keeps the finished sections. */
class PhaseTwoPreparationResumeTest {

    @TempDir
    Path dir;

    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void aPreparationStoppedMidwayResumesKeepingTheFinishedSectionsAndWritesTheSameFile() throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        PowersOfTau.newAccumulator(PairingCurve.BN254, 5, p0);
        PowersOfTau.contribute(p0, p1, "first", "some entropy", m -> { });
        Path whole = dir.resolve("whole.ptau");
        PhaseTwoPreparation.prepare(p1, whole, m -> { });

        // stopped once the third Lagrange section has begun
        String third = PtauFile.NAMES.get(PtauFile.LAGRANGE_ALPHA_TAU_G1);
        Path out = dir.resolve("out.ptau");
        assertThrows(Stop.class, () -> PhaseTwoPreparation.prepare(p1, out, m -> {
            if (m.startsWith(third + ":")) {
                throw new Stop();
            }
        }));
        assertFalse(Files.exists(out));
        assertTrue(Files.exists(dir.resolve("out.ptau.partial")));

        List<String> log = new ArrayList<>();
        PhaseTwoPreparation.prepare(p1, out, log::add);
        assertTrue(log.getFirst().startsWith("resuming"), log::toString);
        for (int kept : new int[] {PtauFile.LAGRANGE_TAU_G1, PtauFile.LAGRANGE_TAU_G2}) {
            String name = PtauFile.NAMES.get(kept);
            assertTrue(log.contains(name + ": kept from the earlier run"), log::toString);
            assertTrue(log.stream().noneMatch(l -> l.startsWith(name + ": domain")), log::toString);
        }
        assertTrue(log.stream().anyMatch(l -> l.startsWith(third + ": domain")), log::toString);
        assertEquals(-1L, Files.mismatch(out, whole), "first differing byte");
        assertFalse(Files.exists(dir.resolve("out.ptau.partial")) || Files.exists(dir.resolve("out.ptau.partial.for")));

        // what another input left is not used
        Path p1b = dir.resolve("p1b.ptau");
        PowersOfTau.contribute(p0, p1b, "other", "other entropy", m -> { });
        Path out2 = dir.resolve("out2.ptau");
        assertThrows(Stop.class, () -> PhaseTwoPreparation.prepare(p1b, out2, m -> {
            throw new Stop();
        }));
        log.clear();
        PhaseTwoPreparation.prepare(p1, out2, log::add);
        assertTrue(log.stream().noneMatch(l -> l.startsWith("resuming") || l.contains("kept")), log::toString);
        assertEquals(-1L, Files.mismatch(out2, whole), "first differing byte");
    }

    @Test
    void aStepProgressHearsTheFractionOfTheWorkDoneEndingAtOne() throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        PowersOfTau.newAccumulator(PairingCurve.BN254, 6, p0);
        List<Double> contributed = new java.util.concurrent.CopyOnWriteArrayList<>();
        PowersOfTau.contribute(p0, p1, "first", "entropy", recorder(contributed));
        List<Double> prepared = new java.util.concurrent.CopyOnWriteArrayList<>();
        PhaseTwoPreparation.prepare(p1, dir.resolve("final.ptau"), recorder(prepared));
        for (List<Double> f : List.of(contributed, prepared)) {
            assertEquals(1.0, f.getLast());
            assertTrue(f.stream().filter(x -> x > 0 && x < 1).count() >= 3, f::toString);
            assertTrue(f.stream().allMatch(x -> x >= 0 && x <= 1), f::toString);
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
