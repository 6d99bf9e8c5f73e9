package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Phase 2 (zkey new, contribute, beacon, verify) against snarkjs 0.7.6, both ways, both curves. */
class ZkeyCeremonyInteropTest {

    @TempDir
    Path dir;

    static String s(Path p) {
        return p.toAbsolutePath().toString();
    }

    /** Each curve with a circuit whose domain is its ptau's power, and one with a larger ptau. */
    static Stream<Arguments> circuits() {
        List<Arguments> out = new ArrayList<>();
        for (String curve : List.of(CircomFixtures.BN128, CircomFixtures.BLS12381)) {
            out.add(Arguments.of(curve, "poseidon", 10));
            out.add(Arguments.of(curve, "multiplier", 10));
        }
        return out.stream();
    }

    static Path ptau(String curve, int power) {
        return CircomFixtures.cacheDir().resolve("ptau").resolve(curve + "_" + power + ".ptau");
    }

    @ParameterizedTest(name = "{0} {1} ptau 2^{2}")
    @MethodSource("circuits")
    void zkeyNewIsByteIdenticalToSnarkjsAndProves(String curve, String circuit, int power) throws IOException {
        Fixture fx = CircomFixtures.build(curve, circuit);
        CircomFixtures.build(curve, "poseidon");   // makes the power-10 ptau
        Path ours = dir.resolve("ours.zkey");
        Path theirs = dir.resolve("theirs.zkey");
        byte[] hash = InitialKey.create(fx.r1cs(), ptau(curve, power), ours, m -> { });
        snarkjs("zkey", "new", s(fx.r1cs()), s(ptau(curve, power)), s(theirs));
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
        assertEquals(64, hash.length);
        assertTrue(proofVerifiesWithSnarkjs(fx, ours));
    }

    /** Runs snarkjs, which must succeed (exit 0, no error logged). */
    static CircomFixtures.SnarkjsRun snarkjs(String... args) {
        CircomFixtures.SnarkjsRun r = CircomFixtures.snarkjs(args);
        assertTrue(r.exitCode() == 0 && r.messages("ERROR").isEmpty(), "snarkjs " + String.join(" ", args) + ": "
                + r.output());
        return r;
    }

    /** A proof made here with {@code zkey} verifies with snarkjs against the key's verification key. */
    boolean proofVerifiesWithSnarkjs(Fixture fx, Path zkey) throws IOException {
        Path proof = dir.resolve("proof.json");
        Path pub = dir.resolve("public.json");
        try (ProvingKey key = ZkeyFile.open(zkey)) {
            Witness w = WtnsFile.read(fx.wtns());
            SnarkjsJson.write(proof, SnarkjsJson.proofJson(Prover.create().prove(key, w)));
            SnarkjsJson.write(pub, SnarkjsJson.publicJson(w.publicSignals(key.publicCount())));
        }
        Path vk = CircomFixtures.exportVk(zkey, dir.resolve("vk.json"));
        return CircomFixtures.snarkjsVerifies(vk, pub, proof);
    }
}
