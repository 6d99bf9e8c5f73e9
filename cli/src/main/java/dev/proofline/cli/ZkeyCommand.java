package dev.proofline.cli;

import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline zkey}: operations on snarkjs proving keys. */
@Command(name = "zkey", mixinStandardHelpOptions = true, description = "Operations on snarkjs Groth16 keys (.zkey).",
        subcommands = {ZkeyCommand.ExportVk.class, ZkeyCommand.Export.class})
final class ZkeyCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code proofline zkey export-vk}: as {@code snarkjs zkey export verificationkey}. */
    @Command(name = "export-vk", mixinStandardHelpOptions = true,
            description = "Write the verification key of a .zkey as snarkjs's verification_key.json"
                    + " (also under snarkjs's name: zkey export verificationkey).")
    static final class ExportVk implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "<circuit.zkey>")
        Path zkey;

        @Parameters(index = "1", paramLabel = "<verification_key.json>")
        Path out;

        @Override
        public Integer call() throws IOException {
            writeVerificationKey(zkey, out);
            return 0;
        }
    }

    /** {@code proofline zkey export ...}: snarkjs's {@code zkey export} commands, with its names and arguments. */
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "snarkjs's `zkey export` commands, with snarkjs's names and arguments.",
            subcommands = {ExportVerificationKey.class})
    static final class Export implements Runnable {

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }
    }

    /** {@code proofline zkey export verificationkey}: snarkjs's name for {@code zkey export-vk}. */
    @Command(name = "verificationkey", mixinStandardHelpOptions = true,
            description = "Write the verification key of a .zkey as `snarkjs zkey export verificationkey` does.")
    static final class ExportVerificationKey implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "<circuit.zkey>")
        Path zkey;

        @Parameters(index = "1", paramLabel = "<verification_key.json>")
        Path out;

        @Override
        public Integer call() throws IOException {
            writeVerificationKey(zkey, out);
            return 0;
        }
    }

    private static void writeVerificationKey(Path zkey, Path out) throws IOException {
        try (ProvingKey key = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE)) {
            SnarkjsJson.write(out, SnarkjsJson.verificationKeyJson(key.verificationKey()));
        }
    }
}
