package dev.proofline.cli;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.InputFiles;
import dev.proofline.r1cs.io.InputLimits;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
                "Verify a Groth16 proof: snarkjs's proof.json, or the binary proof `prove --binary` writes.",
                "Prints OK and exits 0 for a valid proof, prints \"Invalid proof\" and exits 1 otherwise; exits 2"
                        + " when an input cannot be read.");
        CommandModel.path(s, "<verification_key.json>");
        CommandModel.path(s, "<public.json>");
        CommandModel.path(s, "<proof.json|proof.bin>");
        c.spec = s;
        return s;
    }

    @Override
    public Integer call() {
        String usage = "<verification_key.json> <public.json> <proof.json>";
        ArgumentOrder.expect(CommandModel.positional(spec, 0), ArgumentOrder.Kind.VERIFICATION_KEY, usage);
        ArgumentOrder.expect(CommandModel.positional(spec, 1), ArgumentOrder.Kind.PUBLIC, usage);
        ArgumentOrder.expect(CommandModel.positional(spec, 2), ArgumentOrder.Kind.PROOF, usage);
        VerificationKey vk = SnarkjsJson.readVerificationKey(CommandModel.positional(spec, 0));
        List<BigInteger> signals = SnarkjsJson.readPublic(CommandModel.positional(spec, 1));
        Proof proof = readProof(CommandModel.positional(spec, 2), vk);
        Verifier.Result r = Verifier.check(vk, signals, proof);
        if (r.valid()) {
            spec.commandLine().getOut().println("OK");
            return 0;
        }
        spec.commandLine().getOut().println("Invalid proof");
        spec.commandLine().getErr().println(r.reason());
        return 1;
    }

    /** A proof.json, or a binary proof (told apart by {@link ProofBinary#isBinaryProof}), for {@code vk}'s curve. */
    private static Proof readProof(Path file, VerificationKey vk) {
        byte[] bytes = InputFiles.readBounded(file, InputLimits.snarkjsJson().maxBytes(), InputLimits.JSON_BYTES);
        if (ProofBinary.isBinaryProof(bytes, vk.curve())) {
            return ProofBinary.decode(vk.curve(), bytes);
        }
        String text = new String(bytes, 0, Math.min(bytes.length, 64), StandardCharsets.ISO_8859_1).strip();
        if (!text.isEmpty() && text.charAt(0) != '{') {
            // neither: a JSON parser's complaint about the first byte would not say what was expected
            throw new FormatException(file, null, "is neither a proof.json nor a binary " + vk.curve().snarkjsName()
                    + " proof (" + ProofBinary.length(vk.curve()) + " bytes, as `prove --binary` writes): "
                    + bytes.length + " bytes");
        }
        return SnarkjsJson.readProof(bytes, file.toString(), vk.curve());
    }
}
