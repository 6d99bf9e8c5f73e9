package dev.proofline.daemon.jobs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.Circuit;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A built-in Java circuit served from a keys folder: {@code builtin.toml} names it and its size, e.g.
 * <pre>
 *   circuit = "builtin:merkle-post"
 *   curve = "bn128"
 *   constraints = 16384
 *   depth = 30            # optional
 * </pre>
 * next to the {@code circuit.zkey} made for that shape ({@code proofline r1cs export} then a setup).
 * A partition's input is {@code {"seed": n}}: the instance of that seed.
 */
final class BuiltinCircuit {

    record Spec(String circuit, String curve, Long constraints, Integer depth,
            @JsonProperty("sha256_leaves") Boolean sha256Leaves) {
    }

    private BuiltinCircuit() {
    }

    static Circuits.Java read(String id, Path zkey, Path toml) throws IOException {
        Spec s;
        try {
            s = TomlMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
                    .readValue(toml.toFile(), Spec.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IllegalArgumentException(toml + ": " + e.getOriginalMessage());
        }
        if (s.circuit() == null || s.curve() == null || s.constraints() == null) {
            throw new IllegalArgumentException(toml + ": circuit, curve and constraints are required");
        }
        PairingCurve curve = Builtins.curve(s.curve());
        int depth = s.depth() != null ? s.depth() : MerklePost.DEFAULT_DEPTH;
        boolean sha = s.sha256Leaves() != null && s.sha256Leaves();
        Circuit shape = Builtins.circuit(s.circuit(), curve, s.constraints(), depth, sha, 1);
        ObjectMapper json = new ObjectMapper();
        return new Circuits.Java(id, zkey, curve, shape, input -> {
            JsonNode n;
            try {
                n = json.readTree(input);
            } catch (IOException e) {
                throw new IllegalArgumentException("not JSON: " + e.getMessage());
            }
            if (n == null || !n.has("seed") || !n.get("seed").canConvertToLong()) {
                throw new IllegalArgumentException("the input of " + s.circuit() + " is {\"seed\": <integer>}");
            }
            return Builtins.circuit(s.circuit(), curve, s.constraints(), depth, sha, n.get("seed").asLong());
        });
    }
}
