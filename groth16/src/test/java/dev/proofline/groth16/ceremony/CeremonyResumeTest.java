package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.testing.TinyCeremony;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deterministic ceremony steps stopped midway (by their log, once some of their parts are finished):
 * the next run on the same inputs keeps the finished parts and writes the file an uninterrupted run
 * writes, byte for byte; what a run on another input (or with another beacon or name) left is not used.
 * {@link PhaseTwoPreparationResumeTest} and {@code ZkeyCeremonyInteropTest} do the same for
 * {@code prepare phase2} and {@code zkey new}.
 */
class CeremonyResumeTest {

    private static final String BEACON = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";

    @TempDir
    Path dir;

    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    /** A step writing {@code out}, logging to {@code log}. */
    private interface Step {
        void run(Path out, Consumer<String> log) throws IOException;
    }

    @Test
    void aPowersOfTauBeaconResumes() throws IOException {
        Path p1 = contributed("p1.ptau", "first");
        Path p1b = contributed("p1b.ptau", "other");
        String alpha = PtauFile.NAMES.get(PtauFile.ALPHA_TAU_G1);
        resumes("beacon.ptau", (out, log) -> PowersOfTau.beacon(p1, out, "final", BEACON, 10, log),
                "contributed to " + alpha, List.of(PtauFile.NAMES.get(PtauFile.TAU_G1),
                        PtauFile.NAMES.get(PtauFile.TAU_G2), alpha),
                (out, log) -> PowersOfTau.beacon(p1b, out, "final", BEACON, 10, log),
                (out, log) -> PowersOfTau.beacon(p1, out, "final", BEACON.replace('1', '2'), 10, log),
                (out, log) -> PowersOfTau.beacon(p1, out, "final", BEACON, 11, log),
                (out, log) -> PowersOfTau.beacon(p1, out, "another name", BEACON, 10, log));
    }

    @Test
    void aChallengeExportResumes() throws IOException {
        Path p1 = contributed("p1.ptau", "first");
        Path p1b = contributed("p1b.ptau", "other");
        String tauG2 = PtauFile.NAMES.get(PtauFile.TAU_G2);
        resumes("challenge", (out, log) -> ChallengeResponse.exportChallenge(p1, out, log), "exported " + tauG2,
                List.of("last response hash", PtauFile.NAMES.get(PtauFile.TAU_G1), tauG2),
                (out, log) -> ChallengeResponse.exportChallenge(p1b, out, log));
    }

    @Test
    void aResponseImportResumesAndWritesWhatTheContributionWrote() throws IOException {
        Path p1 = contributed("p1.ptau", "first");
        Path p2 = dir.resolve("p2.ptau");
        PowersOfTau.contribute(p1, p2, "second", "second entropy", m -> { });
        Path p2b = dir.resolve("p2b.ptau");
        PowersOfTau.contribute(p1, p2b, "second", "other entropy", m -> { });
        Path response = response(p1, p2, "response");
        Path responseB = response(p1, p2b, "response-b");
        String tauG2 = PtauFile.NAMES.get(PtauFile.TAU_G2);
        Path whole = resumes("imported.ptau",
                (out, log) -> ChallengeResponse.importResponse(p1, response, out, "second", log),
                "imported " + tauG2, List.of(PtauFile.NAMES.get(PtauFile.TAU_G1), tauG2),
                (out, log) -> ChallengeResponse.importResponse(p1, responseB, out, "second", log),
                (out, log) -> ChallengeResponse.importResponse(p1, response, out, "another name", log));
        assertEquals(-1L, Files.mismatch(whole, p2), "first byte where the import and the contribution differ");
    }

    @Test
    void aZkeyBeaconResumes() throws IOException {
        Path[] keys = keys();
        resumes("beacon.zkey", (out, log) -> PhaseTwo.beacon(keys[0], out, "final", BEACON, 10, log),
                "divided section " + PhaseTwoKeyFile.C, List.of("C"),
                (out, log) -> PhaseTwo.beacon(keys[1], out, "final", BEACON, 10, log),
                (out, log) -> PhaseTwo.beacon(keys[0], out, "final", BEACON.replace('1', '2'), 10, log),
                (out, log) -> PhaseTwo.beacon(keys[0], out, "another name", BEACON, 10, log));
    }

    @Test
    void aBellmanExportResumes() throws IOException {
        Path[] keys = keys();
        resumes("key.mpcparams", (out, log) -> BellmanParams.export(keys[0], out, log), "exported L",
                List.of("alpha1, beta1, beta2, gamma2, delta1, delta2", "IC", "H", "L"),
                (out, log) -> BellmanParams.export(keys[1], out, log));
    }

    @Test
    void aBellmanImportResumes() throws IOException {
        Path[] keys = keys();
        Path[] contributed = new Path[2];
        for (int i = 0; i < 2; i++) {
            Path params = dir.resolve("k" + i + ".mpcparams");
            BellmanParams.export(keys[i], params, m -> { });
            contributed[i] = dir.resolve("k" + i + "-contributed.mpcparams");
            BellmanContribution.contribute(PairingCurve.BN254, params, contributed[i], "entropy", m -> { });
        }
        resumes("imported.zkey", (out, log) -> BellmanParams.importParams(keys[0], contributed[0], out, "bellman", log),
                "imported H", List.of("H"),
                (out, log) -> BellmanParams.importParams(keys[1], contributed[1], out, "bellman", log),
                (out, log) -> BellmanParams.importParams(keys[0], contributed[0], out, "another name", log));
    }

    /**
     * Runs {@code step} whole; runs it again, stopped at the first log line that starts with {@code stopAt}
     * (a part's, once it is finished), which leaves the target as it was (absent) and the finished parts in
     * its partial file; resumes it, and checks that {@code kept} were kept, that the parts after them were
     * written and that the file is the whole run's. Then, for each of {@code others} (another input, beacon or name), stops that step after
     * its first part, and checks that {@code step} on the same target keeps nothing of it. Returns the
     * whole run's file.
     */
    private Path resumes(String name, Step step, String stopAt, List<String> kept, Step... others)
            throws IOException {
        Path whole = dir.resolve("whole-" + name);
        step.run(whole, m -> { });
        Path out = dir.resolve(name);
        assertThrows(Stop.class, () -> step.run(out, m -> {
            if (m.startsWith(stopAt)) {
                throw new Stop();
            }
        }));
        assertFalse(Files.exists(out), "the target is not written");
        assertTrue(Files.exists(partial(out, "")), "the finished parts are kept");

        List<String> log = new ArrayList<>();
        step.run(out, log::add);
        assertTrue(log.getFirst().startsWith("resuming the earlier run's " + name + ".partial"), log::toString);
        for (String part : kept) {
            assertTrue(log.contains(part + ": kept from the earlier run"), part + ": " + log);
        }
        assertEquals(kept.size(), log.stream().filter(l -> l.endsWith(": kept from the earlier run")).count(),
                log::toString);
        assertTrue(log.stream().anyMatch(l -> !l.startsWith("resuming") && !l.endsWith("kept from the earlier run")),
                "the parts after the kept ones are written: " + log);
        assertEquals(-1L, Files.mismatch(out, whole), "first differing byte");
        assertFalse(Files.exists(partial(out, "")) || Files.exists(partial(out, ".for")), "nothing is left");

        for (int i = 0; i < others.length; i++) {
            Path other = dir.resolve("other-" + i + "-" + name);
            Step stopped = others[i];
            assertThrows(Stop.class, () -> stopped.run(other, m -> {
                throw new Stop();
            }));
            assertTrue(Files.size(partial(other, "")) > 0, "the other run left its first part");
            log.clear();
            step.run(other, log::add);
            assertTrue(log.stream().noneMatch(l -> l.startsWith("resuming") || l.contains("kept")),
                    "other #" + i + ": " + log);
            assertEquals(-1L, Files.mismatch(other, whole), "other #" + i + ": first differing byte");
        }
        return whole;
    }

    private static Path partial(Path target, String suffix) {
        return target.resolveSibling(target.getFileName() + ".partial" + suffix);
    }

    /** A powers of tau of 2^4 with one contribution named {@code name}, in {@code file}. */
    private Path contributed(String file, String name) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        if (!Files.exists(p0)) {
            PowersOfTau.newAccumulator(PairingCurve.BN254, 4, p0);
        }
        Path p1 = dir.resolve(file);
        PowersOfTau.contribute(p0, p1, name, name + " entropy", m -> { });
        return p1;
    }

    /** Keys of two circuits on one prepared powers of tau, each with a contribution. */
    private Path[] keys() throws IOException {
        Path ptau = dir.resolve("final.ptau");
        TinyCeremony.preparedPtau(dir, ptau);
        Path cube = dir.resolve("cube.zkey");
        Path square = dir.resolve("square.zkey");
        TinyCeremony.key(TinyCeremony.CUBE, ptau, dir.resolve("cube.r1cs"), cube, dir);
        TinyCeremony.key(TinyCeremony.SQUARE, ptau, dir.resolve("square.r1cs"), square, dir);
        return new Path[] {cube, square};
    }

    /**
     * The response that {@code after}'s last contribution answers {@code before}'s challenge with: the
     * challenge hash, {@code after}'s points compressed and the contribution's public key uncompressed.
     */
    private Path response(Path before, Path after, String file) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PtauFile p = PtauFile.open(before); PtauFile q = PtauFile.open(after)) {
            PairingCurve curve = q.curve();
            b.write(PowersOfTau.lastChallenge(p));
            long[] counts = PowersOfTau.counts(q.power());
            for (int s = 0; s < PowersOfTau.SECTIONS.length; s++) {
                PointBytes g = PowersOfTau.group(curve, PowersOfTau.SECTIONS[s]);
                MemorySegment points = q.section(PowersOfTau.SECTIONS[s]);
                long[] point = new long[g.curve().affineWidth()];
                byte[] compressed = new byte[g.compressedSize()];
                for (long i = 0; i < counts[s]; i++) {
                    g.fromStored(points, i * g.size(), point, 0);
                    g.compressed(point, 0, compressed, 0);
                    b.write(compressed);
                }
            }
            b.write(PtauWriter.publicKey(curve, q.contributions().getLast().key(), true));
        }
        Path response = dir.resolve(file);
        Files.write(response, b.toByteArray());
        return response;
    }
}
