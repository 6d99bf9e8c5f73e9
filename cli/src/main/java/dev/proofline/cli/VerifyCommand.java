package dev.proofline.cli;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline verify}: checks a snarkjs-format Groth16 proof, as {@code snarkjs groth16 verify} does. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Verify a Groth16 proof (snarkjs JSON files). Prints OK and exits 0 for a valid proof,",
            "prints \"Invalid proof\" and exits 1 otherwise; exits 2 when an input cannot be read."})
final class VerifyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<verification_key.json>")
    Path vkFile;

    @Parameters(index = "1", paramLabel = "<public.json>")
    Path publicFile;

    @Parameters(index = "2", paramLabel = "<proof.json>")
    Path proofFile;

    @Override
    public Integer call() {
        VerificationKey vk = SnarkjsJson.readVerificationKey(vkFile);
        List<BigInteger> signals = SnarkjsJson.readPublic(publicFile);
        Proof proof = SnarkjsJson.readProof(proofFile, vk.curve());
        Verifier.Result r = Verifier.check(vk, signals, proof);
        if (r.valid()) {
            spec.commandLine().getOut().println("OK");
            return 0;
        }
        spec.commandLine().getOut().println("Invalid proof");
        spec.commandLine().getErr().println(r.reason());
        return 1;
    }
}
