package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code proofline prove / verify / zkey export-vk} as a user runs them, against snarkjs's files. */
class ProveVerifyCommandTest {

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void proveThenVerifyBothWaysAndExportTheKey(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        Path bin = tmp.resolve("proof.bin");
        Run prove = run("prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(), pub.toString(),
                "--binary", bin.toString());
        assertEquals(0, prove.code(), prove.err());
        assertEquals(curve.equals("bn128") ? 128 : 192, Files.size(bin));
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), "snarkjs accepts the CLI's proof");

        Run ok = run("verify", fx.vk().toString(), pub.toString(), proof.toString());
        assertEquals(0, ok.code(), ok.err());
        assertEquals("OK", ok.out().strip());
        Run theirs = run("verify", fx.vk().toString(), fx.publicJson().toString(), fx.proof().toString());
        assertEquals(0, theirs.code(), theirs.err());

        // swap A and C: both valid points, not a valid proof
        String text = Files.readString(proof);
        String a = text.substring(text.indexOf("\"pi_a\""), text.indexOf("\"pi_b\""));
        String c = text.substring(text.indexOf("\"pi_c\""), text.indexOf("\"protocol\""));
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, text.replace(a, "@A@").replace(c, a.replace("pi_a", "pi_c"))
                .replace("@A@", c.replace("pi_c", "pi_a")));
        Run invalid = run("verify", fx.vk().toString(), pub.toString(), bad.toString());
        assertEquals(1, invalid.code());
        assertEquals("Invalid proof", invalid.out().strip());

        Run unreadable = run("verify", fx.vk().toString(), pub.toString(), tmp.resolve("none.json").toString());
        assertEquals(2, unreadable.code());
        assertTrue(unreadable.err().contains("none.json") && unreadable.err().contains("no such file"), unreadable.err());

        Path vk = tmp.resolve("vk.json");
        Run export = run("zkey", "export-vk", fx.zkey().toString(), vk.toString());
        assertEquals(0, export.code(), export.err());
        assertEquals(Files.readString(fx.vk()), Files.readString(vk));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128"})
    void proveRejectsAWitnessOfAnotherCircuitWithExitCode2(String curve) {
        Fixture key = CircomFixtures.build(curve, "multiplier");
        Fixture other = CircomFixtures.build(curve, "poseidon");
        Run r = run("prove", key.zkey().toString(), other.wtns().toString(), tmp.resolve("p.json").toString(),
                tmp.resolve("q.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("the witness has"), r.err());
        assertTrue(Files.notExists(tmp.resolve("p.json")), "no proof file is written");
    }
}
