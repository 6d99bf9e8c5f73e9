package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.algebra.testing.Node;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code proofline r1cs export} on the built-in circuit. */
class CircuitCommandsTest {

    @TempDir
    Path tmp;

    private static String run(int expectedCode, String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(expectedCode, r.code(), r.err());
        return r.out();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn254", "bls12381"})
    void exportedMerklePostIsAcceptedBySnarkjsWtnsCheck(String curve) {
        Path r1cs = tmp.resolve("mp.r1cs");
        Path wtns = tmp.resolve("mp.wtns");
        run(0, "r1cs", "export", "builtin:merkle-post", "--constraints", "3000", "--depth", "8", "--curve", curve,
                "--seed", "5", r1cs.toString(), wtns.toString());
        Node.snarkjs("wtns", "check", r1cs.toString(), wtns.toString()); // throws unless snarkjs accepts
    }
}
