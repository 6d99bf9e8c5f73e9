package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.groth16.testing.CircomFixtures.SnarkjsRun;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands under snarkjs's names and with its arguments ({@code groth16 prove|verify|fullprove},
 * {@code zkey export verificationkey}, {@code r1cs info}, {@code wtns check}), each checked against what
 * snarkjs itself does with the same files; and {@code verify} of the binary proof {@code prove --binary}
 * writes.
 */
class SnarkjsCommandNamesTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void groth16ProveVerifyAndFullproveTakeSnarkjsArguments(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        CliRun prove = CliRun.of("groth16", "prove", fx.zkey().toString(), fx.wtns().toString(), proof.toString(),
                pub.toString());
        assertEquals(0, prove.code(), prove.err());
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), pub, proof), "snarkjs accepts the proof");
        assertEquals(Files.readString(fx.publicJson()), Files.readString(pub), "public.json as snarkjs wrote it");

        CliRun ours = CliRun.of("groth16", "verify", fx.vk().toString(), pub.toString(), proof.toString());
        assertEquals(new CliRun(0, "OK\n", ""), ours);
        CliRun theirs = CliRun.of("groth16", "verify", fx.vk().toString(), fx.publicJson().toString(),
                fx.proof().toString());
        assertEquals(new CliRun(0, "OK\n", ""), theirs, "snarkjs's own proof");
        CliRun swapped = CliRun.of("groth16", "verify", fx.vk().toString(), pub.toString(), fx.vk().toString());
        assertEquals(2, swapped.code(), swapped.err());
        assertTrue(swapped.err().startsWith("proofline groth16 verify: "), "named as typed: " + swapped.err());

        Path fullProof = tmp.resolve("full-proof.json");
        Path fullPub = tmp.resolve("full-public.json");
        CliRun full = CliRun.of("groth16", "fullprove", fx.input().toString(), fx.wasm().toString(),
                fx.zkey().toString(), fullProof.toString(), fullPub.toString());
        assertEquals(0, full.code(), full.err());
        assertTrue(CircomFixtures.snarkjsVerifies(fx.vk(), fullPub, fullProof), "snarkjs accepts the fullprove proof");
        assertEquals(Files.readString(fx.publicJson()), Files.readString(fullPub));
    }

    @Test
    void groth16ListsItsCommandsAndTheyPrintTheRootsVersion() {
        CliRun help = CliRun.of("groth16", "--help");
        assertEquals(0, help.code(), help.err());
        for (String command : List.of("prove", "verify", "fullprove")) {
            assertTrue(help.out().contains("  " + command + " "), command + " in:\n" + help.out());
        }
        CliRun proveHelp = CliRun.of("groth16", "prove", "--help");
        String usage = proveHelp.out().replaceAll("\\s+", " ");
        assertTrue(usage.contains("Usage: proofline groth16 prove ")
                && usage.contains("<circuit.zkey> <witness.wtns> <proof.json> <public.json>"), proveHelp.out());
        assertEquals(CliRun.of("--version").out(), CliRun.of("groth16", "verify", "--version").out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void zkeyExportVerificationkeyWritesTheKeySnarkjsExports(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path vk = tmp.resolve("verification_key.json");
        CliRun export = CliRun.of("zkey", "export", "verificationkey", fx.zkey().toString(), vk.toString());
        assertEquals(0, export.code(), export.err());
        // fx.vk() is what `snarkjs zkey export verificationkey` wrote for this key
        assertEquals(Files.readString(fx.vk()), Files.readString(vk));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void r1csInfoPrintsTheFactsSnarkjsPrints(String curve) {
        for (String circuit : List.of("multiplier", "poseidon")) {
            Fixture fx = CircomFixtures.build(curve, circuit);
            SnarkjsRun snarkjs = CircomFixtures.snarkjs("r1cs", "info", fx.r1cs().toString());
            assertEquals(0, snarkjs.exitCode(), snarkjs.output());
            CliRun ours = CliRun.of("r1cs", "info", fx.r1cs().toString());
            assertEquals(0, ours.code(), ours.err());
            assertEquals(snarkjs.messages("INFO"), ours.out().lines().toList(), circuit);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void wtnsCheckAcceptsAndRejectsTheWitnessesSnarkjsDoes(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        SnarkjsRun snarkjsGood = CircomFixtures.snarkjs("wtns", "check", fx.r1cs().toString(), fx.wtns().toString());
        assertEquals(0, snarkjsGood.exitCode(), snarkjsGood.output());
        CliRun good = CliRun.of("wtns", "check", fx.r1cs().toString(), fx.wtns().toString());
        assertEquals(0, good.code(), good.err());
        assertTrue(good.out().endsWith("WITNESS IS CORRECT\n"), good.out());
        // the facts snarkjs prints before its verdict, with its labels and values
        List<String> facts = snarkjsGood.messages("INFO").stream().filter(l -> l.contains(":")).map(String::strip)
                .toList();
        assertEquals(facts, good.out().lines().limit(facts.size()).toList());

        // the first output (wire 1) changed by one: the constraint that makes it no longer holds
        Witness w = WtnsFile.read(fx.wtns());
        long[] words = w.words().clone();
        words[Witness.WORDS] ^= 1;
        Path bad = tmp.resolve("bad.wtns");
        Files.write(bad, WtnsFile.write(new Witness(w.curve(), words)));
        SnarkjsRun snarkjsBad = CircomFixtures.snarkjs("wtns", "check", fx.r1cs().toString(), bad.toString());
        assertEquals(1, snarkjsBad.exitCode(), snarkjsBad.output());
        CliRun rejected = CliRun.of("wtns", "check", fx.r1cs().toString(), bad.toString());
        assertEquals(1, rejected.code(), rejected.err());
        assertTrue(rejected.out().contains("WITNESS IS NOT CORRECT: constraint #"), rejected.out());

        Fixture other = CircomFixtures.build(curve, "poseidon");
        CliRun mismatched = CliRun.of("wtns", "check", fx.r1cs().toString(), other.wtns().toString());
        assertEquals(2, mismatched.code(), mismatched.out());
        assertTrue(mismatched.err().contains("the witness has"), mismatched.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void verifyTakesTheBinaryProofThatProveWrites(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "multiplier");
        Path bin = tmp.resolve("proof.bin");
        Path pub = tmp.resolve("public.json");
        CliRun prove = CliRun.of("prove", fx.zkey().toString(), fx.wtns().toString(), tmp.resolve("proof.json").toString(),
                pub.toString(), "--binary", bin.toString());
        assertEquals(0, prove.code(), prove.err());
        assertEquals(new CliRun(0, "OK\n", ""), CliRun.of("verify", fx.vk().toString(), pub.toString(), bin.toString()));
        assertEquals(new CliRun(0, "OK\n", ""),
                CliRun.of("groth16", "verify", fx.vk().toString(), pub.toString(), bin.toString()));

        // A and C swapped: both valid points, not a valid proof
        byte[] b = Files.readAllBytes(bin);
        int g1 = b.length / 4;   // A and C are a quarter of the proof each, B the half between them
        byte[] swapped = b.clone();
        System.arraycopy(b, b.length - g1, swapped, 0, g1);
        System.arraycopy(b, 0, swapped, b.length - g1, g1);
        Path bad = tmp.resolve("swapped.bin");
        Files.write(bad, swapped);
        CliRun invalid = CliRun.of("verify", fx.vk().toString(), pub.toString(), bad.toString());
        assertEquals(1, invalid.code(), invalid.err());
        assertEquals("Invalid proof\n", invalid.out());

        // neither form: the message says what was expected
        Path cut = tmp.resolve("cut.bin");
        Files.write(cut, Arrays.copyOf(b, b.length - 1));
        CliRun unreadable = CliRun.of("verify", fx.vk().toString(), pub.toString(), cut.toString());
        assertEquals(2, unreadable.code(), unreadable.err());
        assertTrue(unreadable.err().contains("neither a proof.json nor a binary " + curve + " proof ("
                + ProofBinary.length(PairingCurve.bySnarkjsName(curve).orElseThrow()) + " bytes"), unreadable.err());
    }
}
