package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The prover's accelerator seam: an accelerator that computes H and the G1 sums (and B in G2, when it
 * returns that too) as the CPU does gives the same proof, and one that gets them wrong gives no proof
 * (finish verifies).
 */
class AcceleratorTest {

    /** H and the G1 sums by the CPU code, counting its calls. */
    static class OnCpu implements Prover.Accelerator {
        final AtomicInteger calls = new AtomicInteger();
        final boolean corruptH;
        /** B in G2 as a fifth sum: none, right, or off by the generator of G2. */
        final G2 g2;

        enum G2 { NONE, RIGHT, WRONG }

        OnCpu(boolean corruptH) {
            this(corruptH, G2.NONE);
        }

        OnCpu(boolean corruptH, G2 g2) {
            this.corruptH = corruptH;
            this.g2 = g2;
        }

        @Override
        public long[] quotient(ProvingKey key, long[] a, long[] b, long[] c) {
            calls.incrementAndGet();
            long[] h = Quotient.compute(key, a, b, c);
            if (corruptH) {
                h[0] ^= 1;
            }
            return h;
        }

        @Override
        public long[][] g1Sums(ProvingKey key, long[] w, long[] h) {
            calls.incrementAndGet();
            Msm msm = Msm.on(key.curve().g1());
            int nVars = key.variableCount();
            int nPublic = key.publicCount();
            long[][] g1 = {msm.multiply(key.pointsA(), 0, w, 0, nVars), msm.multiply(key.pointsB1(), 0, w, 0, nVars),
                msm.multiply(key.pointsC(), 0, w, nPublic + 1, nVars - nPublic - 1),
                msm.multiply(key.pointsH(), 0, h, 0, key.domainSize())};
            if (g2 == G2.NONE) {
                return g1;
            }
            var group = key.curve().g2();
            long[] b2 = Msm.on(group).multiply(key.pointsB2(), 0, w, 0, nVars);
            if (g2 == G2.WRONG) {
                group.arithmetic().addMixed(b2, 0, group.generator(), 0, b2, 0);
            }
            return new long[][] {g1[0], g1[1], g1[2], g1[3], b2};
        }
    }

    /**
     * An accelerator that computes a, b, c itself ({@link Prover.Accelerator#computesAbc}): it checks that
     * prepare left a, b, c as they were (the pool's stale bytes) and copied the witness, then computes
     * them from the witness it was made with, and H and the sums as {@link OnCpu}.
     */
    static final class ComputesAbc extends OnCpu {
        final Witness witness;
        final AtomicInteger fromWitness = new AtomicInteger();

        ComputesAbc(Witness witness) {
            super(false);
            this.witness = witness;
        }

        @Override
        public boolean computesAbc(ProvingKey key) {
            return true;
        }

        @Override
        public long[][] sumsFromWitness(ProvingKey key, Prover.NativeWorkspace ws) {
            fromWitness.incrementAndGet();
            long bytes = Prover.NativeWorkspace.vectorBytes(key);
            for (MemorySegment v : new MemorySegment[] {ws.a(), ws.b(), ws.c()}) {
                for (long x : v.asSlice(0, bytes).toArray(ValueLayout.JAVA_LONG)) {
                    assertEquals(STALE, x, "a, b, c left to the accelerator are not written by prepare");
                }
            }
            long[] w = ws.witness().asSlice(0, Prover.NativeWorkspace.witnessBytes(key)).toArray(ValueLayout.JAVA_LONG);
            assertArrayEquals(witness.words(), w);
            Prover.Workspace heap = Prover.Workspace.allocate(key);
            Coefficients.abc(key, witness, heap.a(), heap.b(), heap.c());
            return g1Sums(key, w, quotient(key, heap.a(), heap.b(), heap.c()));
        }
    }

    /** A word of the bytes the pool's buffers hold from an earlier proof, in the test below. */
    private static final long STALE = 0x5c5c5c5c5c5c5c5cL;

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void nativeVectorsPreparedFromTheCoefficientsOrThePceGiveTheSameProof(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(1234567), BigInteger.valueOf(7654321));
        Pce pce = new Pce(R1csFile.read(fx.r1cs()));
        try (ProvingKey key = ZkeyFile.open(fx.zkey()); Arena arena = Arena.ofShared()) {
            Proof plain = Prover.create().withRandomness(rs).prove(key, w);
            long vector = Prover.NativeWorkspace.vectorBytes(key);
            for (boolean fromPce : new boolean[] {false, true}) {
                for (OnCpu acc : new OnCpu[] {null, new OnCpu(false), new ComputesAbc(w)}) {
                    // buffers as the pool hands them out: larger than needed, holding an earlier proof's bytes
                    Prover.NativeWorkspace ws = new Prover.NativeWorkspace(arena.allocate(vector + 4096, 64),
                            arena.allocate(vector + 4096, 64), arena.allocate(vector + 4096, 64),
                            arena.allocate(Prover.NativeWorkspace.witnessBytes(key) + 64, 64));
                    for (MemorySegment seg : new MemorySegment[] {ws.a(), ws.b(), ws.c(), ws.witness()}) {
                        seg.fill((byte) 0x5c);
                    }
                    int rows = -1;
                    if (fromPce) {
                        pce.evaluate(w, new long[w.size() * 4], ws.a(), ws.b(), ws.c());
                        rows = pce.r1cs().constraintCount();
                    }
                    Prover prover = Prover.create().withRandomness(rs).withAccelerator(acc);
                    Prover.Prepared prepared = prover.prepare(key, w, ws, rows);
                    assertArrayEquals(w.words(), ws.witness().asSlice(0, Prover.NativeWorkspace.witnessBytes(key))
                            .toArray(ValueLayout.JAVA_LONG), "the witness's words in native memory");
                    Proof p = prover.finish(prover.start(prepared));
                    String what = (fromPce ? "PCE" : "coefficients") + (acc == null ? ", CPU"
                            : acc instanceof ComputesAbc ? ", accelerator computing a, b, c" : ", accelerator");
                    boolean left = !fromPce && acc instanceof ComputesAbc;
                    assertEquals(left, prepared.abcLeftToAccelerator(), what);
                    if (acc instanceof ComputesAbc c) {
                        assertEquals(left ? 1 : 0, c.fromWitness.get(), what + ": a, b, c by the accelerator");
                    }
                    assertArrayEquals(plain.a(), p.a(), what);
                    assertArrayEquals(plain.b(), p.b(), what);
                    assertArrayEquals(plain.c(), p.c(), what);
                    if (acc != null) {
                        assertEquals(2, acc.calls.get(), what + ": H and the G1 sums went through the accelerator");
                    }
                }
            }
            Prover.NativeWorkspace small = new Prover.NativeWorkspace(arena.allocate(vector - 32),
                    arena.allocate(vector), arena.allocate(vector), arena.allocate(Prover.NativeWorkspace.witnessBytes(key)));
            assertThrows(IllegalArgumentException.class, () -> Prover.create().prepare(key, w, small, -1));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void anAcceleratorDoingTheCpuWorkGivesTheSameProofAndAWrongOneGivesNone(String curve) throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build(curve, "poseidon");
        Witness w = WtnsFile.read(fx.wtns());
        ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(1234567), BigInteger.valueOf(7654321));
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Proof plain = Prover.create().withRandomness(rs).prove(key, w);
            OnCpu acc = new OnCpu(false);
            Proof accelerated = Prover.create().withRandomness(rs).withAccelerator(acc).prove(key, w);
            assertEquals(2, acc.calls.get(), "H and the G1 sums went through the accelerator");
            assertTrue(java.util.Arrays.equals(plain.a(), accelerated.a()) && java.util.Arrays.equals(plain.b(),
                    accelerated.b()) && java.util.Arrays.equals(plain.c(), accelerated.c()), "the same proof");
            Prover wrong = Prover.create().withRandomness(rs).withAccelerator(new OnCpu(true));
            assertThrows(Prover.ProofRejectedException.class, () -> wrong.prove(key, w));
            // B in G2 from the accelerator: finish takes it (a wrong one fails the proof's verification)
            Proof withB2 = Prover.create().withRandomness(rs).withAccelerator(new OnCpu(false, OnCpu.G2.RIGHT))
                    .prove(key, w);
            assertArrayEquals(plain.b(), withB2.b(), "B in G2 from the accelerator");
            assertArrayEquals(plain.c(), withB2.c(), "C with B in G2 from the accelerator");
            Prover wrongB2 = Prover.create().withRandomness(rs).withAccelerator(new OnCpu(false, OnCpu.G2.WRONG));
            assertThrows(Prover.ProofRejectedException.class, () -> wrongB2.prove(key, w));
        }
    }
}
