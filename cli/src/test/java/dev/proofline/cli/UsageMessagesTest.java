package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mistakes a new user makes first, answered in the user's terms: files in the wrong order (the
 * order the command takes, not a parser's complaint), an output folder that does not exist (named,
 * before the proof is made), a client command with no daemon to talk to.
 */
class UsageMessagesTest {

    @TempDir
    Path tmp;

    @Test
    void swappedProofAndPublicSignalsAreNamedWithTheOrderVerifyTakes() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        CliRun swapped = CliRun.of("verify", fx.vk().toString(), fx.proof().toString(), fx.publicJson().toString());
        assertEquals(2, swapped.code(), swapped.err());
        assertTrue(swapped.err().contains(fx.proof() + " is a proof (proof.json), not public signals (public.json):"
                + " the order is <verification_key.json> <public.json> <proof.json>"), swapped.err());
        assertFalse(swapped.err().contains("JSON array"), swapped.err());

        CliRun groth16 = CliRun.of("groth16", "verify", fx.proof().toString(), fx.publicJson().toString(),
                fx.vk().toString());
        assertEquals(2, groth16.code(), groth16.err());
        assertTrue(groth16.err().contains("the order is <verification_key.json> <public.json> <proof.json>"),
                groth16.err());
    }

    @Test
    void aWitnessGeneratorAndItsInputsSwappedAreNamed() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        CliRun swapped = CliRun.of("wtns", "calculate", fx.input().toString(), fx.wasm().toString(),
                tmp.resolve("w.wtns").toString());
        assertEquals(2, swapped.code(), swapped.err());
        assertTrue(swapped.err().contains("is circom inputs (input.json), not a circom witness generator (.wasm): the"
                + " order is <circuit.wasm> <input.json> <witness.wtns>"), swapped.err());

        CliRun prove = CliRun.of("prove", fx.wtns().toString(), fx.zkey().toString(), tmp.resolve("p.json").toString(),
                tmp.resolve("q.json").toString());
        assertEquals(2, prove.code(), prove.err());
        assertTrue(prove.err().contains("is a witness (.wtns), not a proving key (.zkey): the order is <circuit.zkey>"
                + " <witness.wtns> <proof.json> <public.json>"), prove.err());
    }

    @Test
    void fullproveGivenTheWitnessGeneratorWhereItsInputsGoSaysSo() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        CliRun swapped = CliRun.of("fullprove", fx.wasm().toString(), fx.input().toString(), fx.zkey().toString(),
                tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(2, swapped.code(), swapped.err());
        assertTrue(swapped.err().contains(fx.wasm() + " is a circom witness generator (.wasm), not circom inputs"
                + " (input.json): the order is <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json>"),
                swapped.err());
        assertFalse(Files.exists(tmp.resolve("proof.json")));
    }

    @Test
    void theSnarkjsNamedCommandsNameTheOrderTheyTakeToo() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        // snarkjs's order is public, then proof: swapped, the proof was read as an array of signals
        CliRun calldata = CliRun.of("zkey", "export", "soliditycalldata", fx.proof().toString(),
                fx.publicJson().toString());
        assertEquals(2, calldata.code(), calldata.err());
        assertTrue(calldata.err().contains(fx.proof() + " is a proof (proof.json), not public signals (public.json):"
                + " the order is <public.json> <proof.json>"), calldata.err());
        assertFalse(calldata.err().contains("JSON array"), calldata.err());

        CliRun check = CliRun.of("wtns", "check", fx.wtns().toString(), fx.r1cs().toString());
        assertEquals(2, check.code(), check.err());
        assertTrue(check.err().contains(fx.wtns() + " is a witness (.wtns), not a constraint system (.r1cs): the order"
                + " is <circuit.r1cs> <witness.wtns>"), check.err());

        CliRun info = CliRun.of("r1cs", "info", fx.zkey().toString());
        assertEquals(2, info.code(), info.err());
        assertTrue(info.err().contains(fx.zkey() + " is a proving key (.zkey), not a constraint system (.r1cs)"),
                info.err());

        Path vk = tmp.resolve("verification_key.json");
        CliRun export = CliRun.of("zkey", "export", "verificationkey", fx.vk().toString(), vk.toString());
        assertEquals(2, export.code(), export.err());
        assertTrue(export.err().contains(fx.vk() + " is a verification key (verification_key.json), not a proving key"
                + " (.zkey): the order is <circuit.zkey> <verification_key.json>"), export.err());

        Path sol = tmp.resolve("verifier.sol");
        CliRun verifier = CliRun.of("zkey", "export", "solidityverifier", fx.r1cs().toString(), sol.toString());
        assertEquals(2, verifier.code(), verifier.err());
        assertTrue(verifier.err().contains(fx.r1cs() + " is a constraint system (.r1cs), not a proving key (.zkey):"
                + " the order is <circuit.zkey> <verifier.sol>"), verifier.err());
        assertFalse(Files.exists(vk) || Files.exists(sol), "nothing written");
    }

    @Test
    void aMissingOutputFolderIsReportedByNameBeforeTheProof() {
        Fixture fx = CircomFixtures.build(CircomFixtures.BN128, "multiplier");
        Path missing = tmp.resolve("out");
        CliRun prove = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(),
                missing.resolve("proof.json").toString(), missing.resolve("public.json").toString(), "--timings");
        assertEquals(2, prove.code(), prove.err());
        assertTrue(prove.err().contains("the directory " + missing + " does not exist (create it first)"), prove.err());
        // refused before the work: no phase timings were printed
        assertFalse(prove.err().contains("total"), prove.err());
        assertFalse(Files.exists(missing));

        CliRun fullprove = CliRun.of("fullprove", fx.input().toString(), fx.wasm().toString(), fx.zkey().toString(),
                missing.resolve("proof.json").toString(), tmp.resolve("public.json").toString());
        assertEquals(2, fullprove.code(), fullprove.err());
        assertTrue(fullprove.err().contains(missing + " does not exist"), fullprove.err());
    }

    @Test
    void aClientCommandWithNoDaemonSaysSo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CliRun status = CliRun.of("status", "--target", "127.0.0.1:" + port);
        assertEquals(1, status.code(), status.err());
        assertTrue(status.err().contains("no daemon answers at 127.0.0.1:" + port + " (connection refused): start one"
                + " with `proofline daemon`, or give its address with --target"), status.err());
        assertFalse(status.err().contains("io exception"), status.err());
    }
}
