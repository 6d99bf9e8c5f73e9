package dev.proofline.cli;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.SnarkjsJson;
import java.math.BigInteger;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code proofline verify}: checks a snarkjs-format Groth16 proof, as {@code snarkjs groth16 verify} does. */
final class VerifyCommand implements Callable<Integer> {

    private CommandSpec spec;

    private VerifyCommand() {
    }

    /** The command's model, built in code ({@link CommandModel}). */
    static CommandSpec model() {
        VerifyCommand c = new VerifyCommand();
        CommandSpec s = CommandModel.command(c, "verify",
                "Verify a Groth16 proof (snarkjs JSON files). Prints OK and exits 0 for a valid proof,",
                "prints \"Invalid proof\" and exits 1 otherwise; exits 2 when an input cannot be read.");
        CommandModel.path(s, "<verification_key.json>");
        CommandModel.path(s, "<public.json>");
        CommandModel.path(s, "<proof.json>");
        c.spec = s;
        return s;
    }

    @Override
    public Integer call() {
        VerificationKey vk = SnarkjsJson.readVerificationKey(CommandModel.positional(spec, 0));
        List<BigInteger> signals = SnarkjsJson.readPublic(CommandModel.positional(spec, 1));
        Proof proof = SnarkjsJson.readProof(CommandModel.positional(spec, 2), vk.curve());
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
