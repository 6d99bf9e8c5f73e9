package dev.proofline.cli;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.solidity.SolidityCalldata;
import dev.proofline.groth16.solidity.SolidityVerifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline zkey}: operations on snarkjs proving keys. */
@Command(name = "zkey", mixinStandardHelpOptions = true, description = "Operations on snarkjs Groth16 keys (.zkey).",
        subcommands = {ZkeyCommand.ExportVk.class, ZkeyCommand.Export.class, ZkeyCeremonyCommands.New.class,
            ZkeyCeremonyCommands.Contribute.class, ZkeyCeremonyCommands.Beacon.class,
            ZkeyCeremonyCommands.Verify.class, ZkeyCommand.Import.class, ZkeyCommand.Bellman.class})
final class ZkeyCommand extends ParentCommand {

    /** {@code proofline zkey export-vk}: as {@code snarkjs zkey export verificationkey}. */
    @Command(name = "export-vk", mixinStandardHelpOptions = true,
            description = "Write the verification key of a .zkey as snarkjs's verification_key.json"
                    + " (also under snarkjs's name: zkey export verificationkey).")
    static class ExportVk implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "<circuit.zkey>")
        Path zkey;

        @Parameters(index = "1", paramLabel = "<verification_key.json>")
        Path out;

        @Override
        public Integer call() throws IOException {
            ArgumentOrder.expect(zkey, ArgumentOrder.Kind.ZKEY, "<circuit.zkey> <verification_key.json>");
            CommandModel.outputsWritable(out);
            writeVerificationKey(zkey, out);
            return 0;
        }
    }

    /** {@code proofline zkey export ...}: snarkjs's {@code zkey export} commands, with its names and arguments. */
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "snarkjs's `zkey export` commands, with snarkjs's names and arguments.",
            subcommands = {ExportVerificationKey.class, ExportSolidityVerifier.class, ExportSolidityCalldata.class,
                ZkeyCeremonyCommands.ExportBellman.class})
    static final class Export extends ParentCommand {
    }

    /** {@code proofline zkey import ...}: snarkjs's {@code zkey import} command, with its name and arguments. */
    @Command(name = "import", mixinStandardHelpOptions = true,
            description = "snarkjs's `zkey import` command, with snarkjs's name and arguments.",
            subcommands = {ZkeyCeremonyCommands.ImportBellman.class})
    static final class Import extends ParentCommand {
    }

    /** {@code proofline zkey bellman ...}: snarkjs's {@code zkey bellman} command, with its name and arguments. */
    @Command(name = "bellman", mixinStandardHelpOptions = true,
            description = "snarkjs's `zkey bellman` command, with snarkjs's name and arguments.",
            subcommands = {ZkeyCeremonyCommands.BellmanContribute.class})
    static final class Bellman extends ParentCommand {
    }

    /** {@code proofline zkey export verificationkey}: snarkjs's name for {@code zkey export-vk}. */
    @Command(name = "verificationkey", mixinStandardHelpOptions = true,
            description = "Write the verification key of a .zkey as `snarkjs zkey export verificationkey` does.")
    static final class ExportVerificationKey extends ExportVk {
    }

    /** {@code proofline zkey export solidityverifier}: as snarkjs's, a contract that verifies the key's proofs. */
    @Command(name = "solidityverifier", mixinStandardHelpOptions = true,
            description = {"Write a Solidity contract that verifies this key's proofs on Ethereum (BN254 keys only:"
                    + " it uses Ethereum's BN254 precompiles). Its shape is snarkjs's: contract Groth16Verifier,"
                    + " verifyProof(uint[2] _pA, uint[2][2] _pB, uint[2] _pC, uint[n] _pubSignals) returns (bool),"
                    + " taking what `zkey export soliditycalldata` prints.",
                "Exit codes: 0 written, 2 unreadable input or a key not on BN254."})
    static final class ExportSolidityVerifier implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "<circuit.zkey>")
        Path zkey;

        @Parameters(index = "1", paramLabel = "<verifier.sol>")
        Path out;

        @Override
        public Integer call() throws IOException {
            ArgumentOrder.expect(zkey, ArgumentOrder.Kind.ZKEY, "<circuit.zkey> <verifier.sol>");
            CommandModel.outputsWritable(out);
            String source;
            try (ProvingKey key = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE)) {
                source = SolidityVerifier.source(key.verificationKey());
            }
            Files.writeString(out, source, StandardCharsets.UTF_8);
            return 0;
        }
    }

    /** {@code proofline zkey export soliditycalldata}: prints a proof as a Solidity verifier's arguments. */
    @Command(name = "soliditycalldata", mixinStandardHelpOptions = true,
            description = "Print a proof and its public signals as the arguments of the Solidity verifier's"
                    + " verifyProof, the same text `snarkjs zkey export soliditycalldata` prints.")
    static final class ExportSolidityCalldata implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<public.json>")
        Path publicJson;

        @Parameters(index = "1", paramLabel = "<proof.json>")
        Path proofJson;

        @Override
        public Integer call() {
            String usage = "<public.json> <proof.json>";
            ArgumentOrder.expect(publicJson, ArgumentOrder.Kind.PUBLIC, usage);
            ArgumentOrder.expect(proofJson, ArgumentOrder.Kind.PROOF, usage);
            List<BigInteger> signals = SnarkjsJson.readPublic(publicJson);
            Proof proof = SnarkjsJson.readProof(proofJson, null);
            PrintWriter out = spec.commandLine().getOut();
            out.println(SolidityCalldata.of(proof, signals));
            out.flush();
            return 0;
        }
    }

    private static void writeVerificationKey(Path zkey, Path out) throws IOException {
        try (ProvingKey key = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE)) {
            SnarkjsJson.write(out, SnarkjsJson.verificationKeyJson(key.verificationKey()));
        }
    }
}
