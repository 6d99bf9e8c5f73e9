package dev.proofline.groth16.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The snarkjs fixture builder and the snarkjs verify wrapper, on the small multiplier circuit. */
class CircomFixturesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128, CircomFixtures.BLS12381})
    void buildsMultiplierAndSnarkjsVerifiesItsProof(String curve) throws IOException {
        Fixture f = CircomFixtures.build(curve, "multiplier");
        assertEquals(curve, f.curve());
        assertEquals("multiplier", f.circuit());
        assertEquals(10, f.constraints());
        assertEquals(4, f.power()); // 10 constraints + 2 public inputs + 2 outputs + 1 <= 16
        for (Path p : List.of(f.r1cs(), f.wasm(), f.zkey(), f.vk(), f.input(), f.wtns(), f.proof(), f.publicJson())) {
            assertTrue(p.isAbsolute(), p.toString());
            assertTrue(Files.isRegularFile(p) && Files.size(p) > 0, p + " missing or empty");
        }
        assertSame(f, CircomFixtures.build(curve, "multiplier"));

        JsonNode vk = JSON.readTree(f.vk().toFile());
        assertEquals("groth16", vk.path("protocol").asText());
        assertEquals(curve, vk.path("curve").asText());
        assertEquals(4, vk.path("nPublic").asInt());
        // public signals: outputs first, then public inputs (a = 3, b = 11 in multiplier.input.json)
        JsonNode pub = JSON.readTree(f.publicJson().toFile());
        assertEquals(4, pub.size());
        assertEquals("3", pub.get(2).asText());
        assertEquals("11", pub.get(3).asText());

        assertTrue(CircomFixtures.snarkjsVerifies(f.vk(), f.publicJson(), f.proof()));
    }

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128, CircomFixtures.BLS12381})
    void tamperedProofOrPublicInputIsRejected(String curve, @TempDir Path tmp) throws IOException {
        Fixture f = CircomFixtures.build(curve, "multiplier");
        JsonNode vk = JSON.readTree(f.vk().toFile());

        // pi_a replaced by another valid G1 point (alpha), so the file still parses and is on the curve
        ObjectNode proof = (ObjectNode) JSON.readTree(f.proof().toFile());
        proof.set("pi_a", vk.get("vk_alpha_1").deepCopy());
        Path badProof = tmp.resolve("proof.json");
        JSON.writeValue(badProof.toFile(), proof);
        assertFalse(CircomFixtures.snarkjsVerifies(f.vk(), f.publicJson(), badProof));

        // public input a changed from 3 to 4
        ArrayNode pub = (ArrayNode) JSON.readTree(f.publicJson().toFile());
        pub.set(2, "4");
        Path badPublic = tmp.resolve("public.json");
        JSON.writeValue(badPublic.toFile(), pub);
        assertFalse(CircomFixtures.snarkjsVerifies(f.vk(), badPublic, f.proof()));
    }

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128, CircomFixtures.BLS12381})
    void unreadableInputIsAnErrorNotARejection(String curve, @TempDir Path tmp) throws IOException {
        Fixture f = CircomFixtures.build(curve, "multiplier");
        assertThrows(IllegalStateException.class,
                () -> CircomFixtures.snarkjsVerifies(f.vk(), f.publicJson(), tmp.resolve("missing.json")));
        Path broken = Files.writeString(tmp.resolve("broken.json"), "{\"pi_a\": [");
        assertThrows(IllegalStateException.class,
                () -> CircomFixtures.snarkjsVerifies(f.vk(), f.publicJson(), broken));
    }

    @ParameterizedTest
    @ValueSource(strings = {CircomFixtures.BN128, CircomFixtures.BLS12381})
    void exportVkReproducesTheFixturesVerificationKey(String curve, @TempDir Path tmp) throws IOException {
        Fixture f = CircomFixtures.build(curve, "multiplier");
        Path vk = CircomFixtures.exportVk(f.zkey(), tmp.resolve("vk.json"));
        assertArrayEquals(Files.readAllBytes(f.vk()), Files.readAllBytes(vk));
    }
}
