package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proofs made here against snarkjs (circuits compiled by circom, keys made by snarkjs's own setup on
 * a fresh powers of tau), on both curves: ours verify with snarkjs, snarkjs's verify with ours,
 * tampered ones are rejected by both, and the exported files equal snarkjs's byte for byte.
 */
class Groth16InteropTest {

    @TempDir
    Path tmp;

    static Stream<Arguments> fixtures() {
        List<Arguments> out = new ArrayList<>();
        for (String curve : List.of("bn128", "bls12381")) {
            for (String circuit : List.of("multiplier", "poseidon", "nopublic", "allprivate")) {
                out.add(Arguments.of(curve, circuit));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void ourProofVerifiesWithSnarkjsAndOurFilesMatchSnarkjsFiles(String curveName, String circuit) throws IOException {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        Path proofJson = tmp.resolve("proof.json");
        Path publicJson = tmp.resolve("public.json");
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            assertEquals(curveName, key.curve().snarkjsName());
            Witness w = WtnsFile.read(fx.wtns());
            Proof proof = Prover.create().prove(key, w);
            SnarkjsJson.write(proofJson, SnarkjsJson.proofJson(proof));
            SnarkjsJson.write(publicJson, SnarkjsJson.publicJson(w.publicSignals(key.publicCount())));

            assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), publicJson, proofJson), "snarkjs accepts our proof");
            assertEquals(Files.readString(fx.publicJson()), Files.readString(publicJson), "public.json as snarkjs writes it");
            assertEquals(shape(Files.readString(fx.proof())), shape(Files.readString(proofJson)),
                    "proof.json laid out as snarkjs lays it out");
            assertEquals(Files.readString(fx.vk()), SnarkjsJson.verificationKeyJson(key.verificationKey()),
                    "verification key equals snarkjs's export byte for byte");

            // ours, read back, with our verifier; and the binary form round-trips
            Proof back = SnarkjsJson.readProof(proofJson, key.curve());
            assertEquals(proof, back);
            assertEquals(proof, ProofBinary.decode(key.curve(), ProofBinary.encode(proof)));
            assertEquals(ProofBinary.length(key.curve()), ProofBinary.encode(proof).length);
        }
    }

    /** The text with every number blanked: the layout (keys, order, indentation, newlines) only. */
    private static String shape(String json) {
        return json.replaceAll("[0-9]+", "N");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void snarkjsProofVerifiesWithOursAndTamperedProofsAreRejectedByBoth(String curveName, String circuit)
            throws IOException {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        VerificationKey vk = SnarkjsJson.readVerificationKey(fx.vk());
        PairingCurve curve = vk.curve();
        List<BigInteger> signals = SnarkjsJson.readPublic(fx.publicJson());
        Proof theirs = SnarkjsJson.readProof(fx.proof(), curve);
        assertTrue(Verifier.verify(vk, signals, theirs), "our verifier accepts snarkjs's proof");

        // A moved to A + G: still a valid point, so both verifiers must reject it on the pairing
        PointArithmetic pa = curve.g1().arithmetic();
        long[] a = theirs.a();
        long[] jac = new long[curve.g1().jacobianWidth()];
        pa.fromAffine(a, 0, jac, 0);
        pa.addMixed(jac, 0, curve.g1().generator(), 0, jac, 0);
        long[] moved = new long[a.length];
        pa.toAffine(jac, 0, moved, 0);
        Proof tampered = new Proof(curve, moved, theirs.b(), theirs.c());
        assertFalse(Verifier.verify(vk, signals, tampered), "our verifier rejects a tampered proof");
        Path tamperedJson = tmp.resolve("tampered.json");
        SnarkjsJson.write(tamperedJson, SnarkjsJson.proofJson(tampered));
        assertFalse(CircomFixtures.snarkjsVerifies(fx.vk(), fx.publicJson(), tamperedJson),
                "snarkjs rejects the tampered proof");

        // a changed public signal
        if (!signals.isEmpty()) {
            List<BigInteger> changed = new ArrayList<>(signals);
            changed.set(0, changed.get(0).add(BigInteger.ONE));
            assertFalse(Verifier.verify(vk, changed, theirs), "a different public signal is rejected");
            Path pub = tmp.resolve("public-changed.json");
            SnarkjsJson.write(pub, SnarkjsJson.publicJson(changed.stream().map(BigInteger::toString).toList()));
            assertFalse(CircomFixtures.snarkjsVerifies(fx.vk(), pub, fx.proof()), "snarkjs rejects it too");
        }
        // the wrong number of signals, a signal not below r
        List<BigInteger> more = new ArrayList<>(signals);
        more.add(BigInteger.ONE);
        assertFalse(Verifier.verify(vk, more, theirs));
        if (!signals.isEmpty()) {
            List<BigInteger> big = new ArrayList<>(signals);
            big.set(0, big.get(0).add(curve.fr().modulus()));
            assertFalse(Verifier.verify(vk, big, theirs), "x + r is not accepted in place of x");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void fixedRandomnessGivesTheSameProofAndFreshRandomnessAnother(String curveName, String circuit) {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Witness w = WtnsFile.read(fx.wtns());
            Prover fixed = Prover.create().withRandomness(
                    ProofRandomness.fixedForTesting(BigInteger.valueOf(12345), BigInteger.valueOf(678)));
            Proof p1 = fixed.prove(key, w);
            Proof p2 = fixed.prove(key, w);
            assertEquals(p1, p2);
            Proof p3 = Prover.create().prove(key, w);
            assertNotEquals(p1, p3);
            assertTrue(Verifier.verify(key.verificationKey(), Prover.publicSignals(w, key.publicCount()), p3));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void aKeyWithPrecomputedTablesGivesTheSameProofAndSnarkjsAcceptsIt(String curveName, String circuit)
            throws IOException {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        Prover fixed = Prover.create().withRandomness(
                ProofRandomness.fixedForTesting(BigInteger.valueOf(4242), BigInteger.valueOf(99)));
        Witness w = WtnsFile.read(fx.wtns());
        Proof plain;
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            plain = fixed.prove(key, w);
        }
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            KeyTables tables = KeyTables.build(key, Long.MAX_VALUE);
            assertEquals(5, tables.count(), tables.toString());
            assertTrue(key.attach(tables));
            Proof withTables = fixed.prove(key, w);
            assertEquals(plain, withTables, "the same proof with and without tables, for the same r and s");
            Path proofJson = tmp.resolve("proof.json");
            Path publicJson = tmp.resolve("public.json");
            SnarkjsJson.write(proofJson, SnarkjsJson.proofJson(withTables));
            SnarkjsJson.write(publicJson, SnarkjsJson.publicJson(w.publicSignals(key.publicCount())));
            assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), publicJson, proofJson), "snarkjs accepts it");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void aWitnessThatDoesNotSatisfyTheCircuitGivesAnErrorNeverAProof(String curveName, String circuit) {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        R1cs r1cs = R1csFile.read(fx.r1cs());
        Witness good = WtnsFile.read(fx.wtns());
        assertEquals(-1, r1cs.firstUnsatisfied(good), "snarkjs's witness satisfies circom's constraints");
        // change the last (private, internal) value
        long[] words = good.words().clone();
        int last = good.size() - 1;
        words[last * Witness.WORDS] ^= 1;
        Witness bad = new Witness(good.curve(), words);
        assertTrue(r1cs.firstUnsatisfied(bad) >= 0, "the changed witness violates a constraint");
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            assertEquals(r1cs.wireCount(), key.variableCount());
            assertEquals(r1cs.publicCount(), key.publicCount());
            Prover.ProofRejectedException e = assertThrows(Prover.ProofRejectedException.class,
                    () -> Prover.create().prove(key, bad));
            assertTrue(e.getMessage().contains("fails its own verification"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void startAndFinishAreTheTwoHalvesOfProve(String curveName, String circuit) {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
            Witness w = WtnsFile.read(fx.wtns());
            Prover p = Prover.create().withRandomness(ProofRandomness.fixedForTesting(BigInteger.TWO, BigInteger.TEN));
            List<Step> steps = new ArrayList<>();
            Prover.Started st = p.withStepsInOrder().withListener(steps::add).start(key, w);
            assertEquals(List.of(Step.values()).subList(0, 6), steps, "start: a, b, c, H and the G1 MSMs");
            Proof halves = p.finish(st);
            assertEquals(p.prove(key, w), halves);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void theMsmsBesideTheTransformsGiveTheSameProofAndTellEachStepOnce(String curveName, String circuit) {
        Fixture fx = CircomFixtures.build(curveName, circuit);
        Witness w = WtnsFile.read(fx.wtns());
        Prover p = Prover.create().withRandomness(ProofRandomness.fixedForTesting(BigInteger.TWO, BigInteger.TEN));
        for (boolean tables : new boolean[] {false, true}) {
            try (ProvingKey key = ZkeyFile.open(fx.zkey())) {
                if (tables) {
                    assertTrue(key.attach(KeyTables.build(key, Long.MAX_VALUE)));
                }
                assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "the steps run side by side on two or"
                        + " more processors; this machine has one");
                assertTrue(ProofMsms.sideBySide(key), "a small key");
                List<Step> begun = new ArrayList<>();
                List<Step> ended = new ArrayList<>();
                Prover.Listener listener = new Prover.Listener() {
                    @Override
                    public void step(Step step) {
                        begun.add(step);
                    }

                    @Override
                    public void ended(Step step) {
                        assertTrue(begun.contains(step) && !ended.contains(step), step + " ends once, after it began");
                        ended.add(step);
                    }
                };
                Proof beside = p.withListener(listener).prove(key, w);
                assertEquals(p.withStepsInOrder().prove(key, w), beside, "tables " + tables);
                assertEquals(Set.of(Step.values()), Set.copyOf(begun), "every step begins: " + begun);
                assertEquals(Step.count(), begun.size(), "each once: " + begun);
                assertEquals(Set.of(Step.H, Step.MSM_A, Step.MSM_B1, Step.MSM_C, Step.MSM_B2), Set.copyOf(ended));
                assertEquals(List.of(Step.MSM_H, Step.ASSEMBLY, Step.VERIFICATION), begun.subList(6, 9),
                        "H after the MSMs beside the transforms, then the rest in order");
            }
        }
    }
}
