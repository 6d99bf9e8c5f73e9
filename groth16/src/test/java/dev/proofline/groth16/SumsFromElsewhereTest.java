package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proofline.algebra.msm.Msm;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.pce.Pce;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The prover's seam for device backends: native vectors prepared for a device (a, b, c completed, or left
 * to the device), and sums computed elsewhere that {@link Prover#finish} completes. Sums computed as
 * the CPU does give the same proof; wrong ones give no proof (finish verifies).
 */
class SumsFromElsewhereTest {

    /** A word of the bytes the pool's buffers hold from an earlier proof, in the test below. */
    private static final long STALE = 0x5c5c5c5c5c5c5c5cL;

    /** What a device would compute, by the CPU code: H from a, b, c, then the four G1 sums (and B2 if asked). */
    static ProofSums sums(ProvingKey key, long[] w, long[] a, long[] b, long[] c, boolean b2) {
        long[] h = Quotient.compute(key, a, b, c);
        Msm msm = Msm.on(key.curve().g1());
        int nVars = key.variableCount();
        int nPublic = key.publicCount();
        return ProofSums.of(msm.multiply(key.pointsA(), 0, w, 0, nVars), msm.multiply(key.pointsB1(), 0, w, 0, nVars),
                msm.multiply(key.pointsC(), 0, w, nPublic + 1, nVars - nPublic - 1),
                msm.multiply(key.pointsH(), 0, h, 0, key.domainSize()),
                b2 ? Msm.on(key.curve().g2()).multiply(key.pointsB2(), 0, w, 0, nVars) : null);
    }

    private static long[] words(MemorySegment s, long bytes) {
        return s.asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void nativeVectorsPreparedFromTheCoefficientsOrThePceOrLeftToTheDeviceGiveTheSameProof(String curve)
            throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(1234567), BigInteger.valueOf(7654321));
        Pce pce = new Pce(R1csFile.read(fx.r1cs()));
        try (ProvingKey key = ZkeyFile.open(fx.zkey()); Arena arena = Arena.ofShared()) {
            Prover prover = Prover.create().withRandomness(rs);
            Proof plain = prover.prove(key, w);
            long vector = Prover.NativeWorkspace.vectorBytes(key);
            long witnessBytes = Prover.NativeWorkspace.witnessBytes(key);
            for (boolean fromPce : new boolean[] {false, true}) {
                for (boolean abcOnDevice : new boolean[] {false, true}) {
                    // buffers as the pool hands them out: larger than needed, holding an earlier proof's bytes
                    Prover.NativeWorkspace ws = new Prover.NativeWorkspace(arena.allocate(vector + 4096, 64),
                            arena.allocate(vector + 4096, 64), arena.allocate(vector + 4096, 64),
                            arena.allocate(witnessBytes + 64, 64));
                    for (MemorySegment seg : new MemorySegment[] {ws.a(), ws.b(), ws.c(), ws.witness()}) {
                        seg.fill((byte) 0x5c);
                    }
                    int rows = -1;
                    if (fromPce) {
                        pce.evaluate(w, new long[w.size() * 4], ws.a(), ws.b(), ws.c());
                        rows = pce.r1cs().constraintCount();
                    }
                    String what = (fromPce ? "PCE" : "coefficients") + (abcOnDevice ? ", a, b, c on the device" : "");
                    Prover.Prepared prepared = prover.prepare(key, w, ws, rows, abcOnDevice);
                    assertArrayEquals(w.words(), words(ws.witness(), witnessBytes), "the witness's words, " + what);
                    boolean left = !fromPce && abcOnDevice;
                    assertEquals(left, prepared.abcLeftToDevice(), what);
                    Proof p;
                    if (left) {
                        for (MemorySegment v : new MemorySegment[] {ws.a(), ws.b(), ws.c()}) {
                            for (long x : words(v, vector)) {
                                assertEquals(STALE, x, "a, b, c left to the device are not written by prepare");
                            }
                        }
                        assertThrows(IllegalStateException.class, () -> prover.start(prepared), "the CPU cannot start it");
                        // the device's part: a, b, c from the coefficients and the witness it was sent
                        Prover.Workspace heap = Prover.Workspace.allocate(key);
                        Coefficients.abc(key, w, heap.a(), heap.b(), heap.c());
                        ProofSums sums = sums(key, words(ws.witness(), witnessBytes), heap.a(), heap.b(), heap.c(), false);
                        p = prover.finish(Prover.started(key, w, sums, 0, 0));
                    } else {
                        p = prover.finish(prover.start(prepared));
                    }
                    assertEquals(plain, p, what);
                }
            }
            Prover.NativeWorkspace small = new Prover.NativeWorkspace(arena.allocate(vector - 32),
                    arena.allocate(vector), arena.allocate(vector), arena.allocate(witnessBytes));
            assertThrows(IllegalArgumentException.class, () -> Prover.create().prepare(key, w, small, -1, false));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void sumsComputedElsewhereGiveTheSameProofAndWrongOnesGiveNone(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(1234567), BigInteger.valueOf(7654321));
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Prover prover = Prover.create().withRandomness(rs);
            Proof plain = prover.prove(key, w);
            Prover.Workspace ws = Prover.Workspace.allocate(key);
            prover.abc(key, w, ws, -1);
            ProofSums g1 = sums(key, w.words(), ws.a().clone(), ws.b().clone(), ws.c().clone(), false);
            ProofSums withB2 = sums(key, w.words(), ws.a().clone(), ws.b().clone(), ws.c().clone(), true);
            assertEquals(g1, withB2.withoutB2(), "the same G1 sums");
            assertEquals(plain, prover.finish(Prover.started(key, w, g1, 0, 0)), "B in G2 by finish");
            assertEquals(plain, prover.finish(Prover.started(key, w, withB2, 0, 0)), "B in G2 from elsewhere");

            long[] h = g1.h().jacobian().clone();
            h[0] ^= 1;
            ProofSums wrongH = new ProofSums(g1.a(), g1.b1(), g1.c(), new ProofSums.G1(h), null);
            assertThrows(Prover.ProofRejectedException.class, () -> prover.finish(Prover.started(key, w, wrongH, 0, 0)));
            var group = key.curve().g2();
            long[] b2 = withB2.b2().jacobian().clone();
            group.arithmetic().addMixed(b2, 0, group.generator(), 0, b2, 0);
            ProofSums wrongB2 = new ProofSums(g1.a(), g1.b1(), g1.c(), g1.h(), new ProofSums.G2(b2));
            assertThrows(Prover.ProofRejectedException.class, () -> prover.finish(Prover.started(key, w, wrongB2, 0, 0)));
        }
    }
}
