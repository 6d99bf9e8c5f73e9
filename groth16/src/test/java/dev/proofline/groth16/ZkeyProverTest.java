package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The common case, on snarkjs's files: a .zkey and a .wtns give a proof whose files snarkjs accepts and
 * whose signals are the numbers the verifier takes; a proof read back from snarkjs's files is the same.
 */
class ZkeyProverTest {

    @TempDir
    Path tmp;

    @Test
    void aWarmedUpProverGivesTheSameProofForTheSameRandomnessAndSnarkjsVerifiesIt() throws IOException {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "poseidon");
        Prover fixed = Prover.create().withRandomness(ProofRandomness.fixedForTesting(BigInteger.valueOf(12345),
                BigInteger.valueOf(67890)));
        try (ZkeyProver prover = ZkeyProver.open(fx.zkey(), fixed)) {
            ProofWithSignals before = prover.prove(fx.wtns());
            boolean kernels = prover.warmUp();
            // with the Vector module and 512-bit vectors the 8-lane kernels apply on both curves
            boolean expected = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                    && Boolean.parseBoolean(System.getProperty("proofline.vector", "true"))
                    && avx512();
            assertEquals(expected, kernels, "8-lane kernels in use after warmUp()");
            ProofWithSignals after = prover.prove(fx.wtns());
            assertEquals(before, after, "the same proof with the kernels compiled");
            Path proofJson = tmp.resolve("proof.json");
            Path publicJson = tmp.resolve("public.json");
            after.write(proofJson, publicJson);
            assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), publicJson, proofJson), "snarkjs rejects it");
        }
    }

    /** Whether the processor has AVX-512 (512-bit vectors), from /proc/cpuinfo; false where unreadable. */
    private static boolean avx512() {
        try {
            return Files.readString(Path.of("/proc/cpuinfo")).contains(" avx512f");
        } catch (IOException e) {
            return false;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128, CircomFixtures.BLS12381})
    void aWitnessFileIsProvedIntoFilesSnarkjsVerifiesAndSignalsOurVerifierTakes(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        try (ZkeyProver prover = ZkeyProver.open(fx.zkey())) {
            ProofWithSignals proof = prover.prove(fx.wtns());
            assertEquals(SnarkjsJson.readPublic(fx.publicJson()), proof.publicSignals(), "snarkjs's public signals");
            assertTrue(prover.verify(proof).valid());
            assertTrue(Verifier.check(SnarkjsJson.readVerificationKey(fx.vk()), proof.publicSignals(), proof.proof())
                    .valid(), "snarkjs's verification key, the signals as they are");

            Path proofJson = tmp.resolve("proof.json");
            Path publicJson = tmp.resolve("public.json");
            Path vkJson = tmp.resolve("verification_key.json");
            proof.write(proofJson, publicJson);
            prover.writeVerificationKey(vkJson);
            assertEquals(Files.readString(fx.publicJson()), Files.readString(publicJson));
            assertEquals(Files.readString(fx.vk()), Files.readString(vkJson), "zkey export verificationkey's file");
            assertTrue(CircomFixtures.snarkjsVerifies(vkJson, publicJson, proofJson), "snarkjs rejects it");
            assertEquals(proof, ProofWithSignals.read(proofJson, publicJson, prover.key().curve()), "read back");

            // the same witness given as values
            Witness w = WtnsFile.read(fx.wtns());
            assertEquals(proof.publicSignals(), prover.prove(w).publicSignals());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128, CircomFixtures.BLS12381})
    void snarkjsProofsAreReadAndOtherSignalsAreRejectedWithAReason(String curve) {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        ProofWithSignals snarkjs = ProofWithSignals.read(fx.proof(), fx.publicJson(), PairingCurve.bySnarkjsName(curve).orElseThrow());
        VerificationKey vk = SnarkjsJson.readVerificationKey(fx.vk());
        List<BigInteger> other = new ArrayList<>(snarkjs.publicSignals());
        other.set(0, other.get(0).add(BigInteger.ONE));
        // the first check with a key computes all four pairs; from the second on, the key is prepared
        // (gamma's and delta's lines, e(alpha, beta)'s Miller loop) and gives the same answers
        for (int round = 0; round < 3; round++) {
            assertTrue(snarkjs.verify(vk).valid(), "round " + round);
            Verifier.Result rejected = new ProofWithSignals(snarkjs.proof(), other).verify(vk);
            assertFalse(rejected.valid(), "round " + round);
            assertEquals("the pairing check failed", rejected.reason());
        }
        assertNotNull(vk.prepared(), "prepared after its second check");
        // prepared at once when asked (a key an engine keeps), with the same answers from its first check
        VerificationKey fresh = SnarkjsJson.readVerificationKey(fx.vk());
        fresh.prepare();
        assertNotNull(fresh.prepared(), "prepared before any check");
        assertTrue(snarkjs.verify(fresh).valid());
        assertFalse(new ProofWithSignals(snarkjs.proof(), other).verify(fresh).valid());
        assertEquals(snarkjs.publicSignals().stream().map(BigInteger::toString).toList(),
                snarkjs.publicSignalsDecimal());
    }

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128})
    void aWitnessOfAnotherCircuitIsRefusedBeforeAnyProof(String curve) {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Fixture other = CircomFixtures.build(curve, "nopublic");
        try (ZkeyProver prover = ZkeyProver.open(fx.zkey())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> prover.prove(other.wtns()));
            assertTrue(e.getMessage().contains("values"), e.getMessage());
        }
    }
}
