package dev.proofline.groth16;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Keys from the development setup are keys snarkjs accepts: it exports, proves and verifies with them. */
class DevSetupTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"bn128, multiplier", "bn128, poseidon", "bls12381, multiplier", "bls12381, poseidon",
        "bn128, allprivate"})
    void snarkjsExportsProvesAndVerifiesWithADevKey(String curve, String circuit) throws IOException {
        Fixture fx = CircomFixtures.build(curve, circuit);
        Path zkey = tmp.resolve("dev.zkey");
        DevSetup.run(R1csFile.read(fx.r1cs()), zkey, new Random(7));

        Path theirVk = CircomFixtures.exportVk(zkey, tmp.resolve("vk-snarkjs.json"));
        try (ProvingKey key = ZkeyFile.open(zkey)) {
            assertEquals(Files.readString(theirVk), SnarkjsJson.verificationKeyJson(key.verificationKey()),
                    "snarkjs exports the same verification key");
            Witness w = WtnsFile.read(fx.wtns());
            Proof ours = Prover.create().prove(key, w);
            Path proof = tmp.resolve("proof.json");
            Path pub = tmp.resolve("public.json");
            SnarkjsJson.write(proof, SnarkjsJson.proofJson(ours));
            SnarkjsJson.write(pub, SnarkjsJson.publicJson(w.publicSignals(key.publicCount())));
            assertTrue(CircomFixtures.snarkjsVerifies(theirVk, pub, proof), "snarkjs verifies our proof on the dev key");

            Path sProof = tmp.resolve("s-proof.json");
            Path sPub = tmp.resolve("s-public.json");
            Node.snarkjs("groth16", "prove", zkey.toString(), fx.wtns().toString(), sProof.toString(), sPub.toString());
            assertTrue(Verifier.verify(key.verificationKey(), SnarkjsJson.readPublic(sPub),
                    SnarkjsJson.readProof(sProof, key.curve())), "snarkjs's proof on the dev key verifies with ours");
        }
    }
}
