package dev.proofline.cli;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.ceremony.BellmanContribution;
import dev.proofline.groth16.ceremony.BellmanParams;
import dev.proofline.groth16.ceremony.HexFormatting;
import dev.proofline.groth16.ceremony.InitialKey;
import dev.proofline.groth16.ceremony.PhaseTwo;
import dev.proofline.groth16.ceremony.ZkeyVerifier;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code proofline zkey new | contribute | beacon | verify | export bellman | import bellman | bellman
 * contribute}: phase 2 of the trusted setup, as snarkjs's.
 */
final class ZkeyCeremonyCommands {

    private ZkeyCeremonyCommands() {
    }

    @Command(name = "new", mixinStandardHelpOptions = true,
            description = "Make the initial phase-2 key of a circuit from a prepared powers of tau: byte for byte what"
                    + " `snarkjs zkey new` writes. Not usable for proofs that matter until contributed to.")
    static final class New implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit.r1cs>")
        Path r1cs;

        @Parameters(index = "1", paramLabel = "<prepared.ptau>")
        Path ptau;

        @Parameters(index = "2", paramLabel = "<circuit_0000.zkey>")
        Path out;

        @Override
        public Integer call() throws IOException {
            long t0 = System.nanoTime();
            byte[] hash = InitialKey.create(r1cs, ptau, out, CeremonyOutput.progress(spec));
            CeremonyOutput.print(spec, HexFormatting.hashBlock("Circuit hash: ", hash));
            spec.commandLine().getErr().printf("%s written in %.1f s%n", out, (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }

    @Command(name = "contribute", mixinStandardHelpOptions = true,
            description = {"Add a phase-2 contribution: a secret from the operating system's secure source, mixed"
                + " with the entropy text if one is given, overwritten once the file is written."})
    static final class Contribute implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<in.zkey>")
        Path in;

        @Parameters(index = "1", paramLabel = "<out.zkey>")
        Path out;

        @Option(names = {"-n", "--name"}, description = "the contribution's name (at most 64 characters are kept)")
        String name;

        @Option(names = {"-e", "--entropy"}, description = "extra entropy text, mixed with the system's")
        String entropy = "";

        @Override
        public Integer call() throws IOException {
            PhaseTwo.Result r = PhaseTwo.contribute(in, out, name, entropy, CeremonyOutput.progress(spec));
            CeremonyOutput.print(spec, HexFormatting.hashBlock("Circuit Hash: ", r.circuitHash()),
                    HexFormatting.hashBlock("Contribution Hash: ", r.contributionHash()));
            return 0;
        }
    }

    @Command(name = "beacon", mixinStandardHelpOptions = true,
            description = "Add the final phase-2 contribution from a public random beacon: SHA-256 iterated"
                    + " 2^numIterationsExp times over the beacon hash gives the secret, so anyone can recompute it.")
    static final class Beacon implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<in.zkey>")
        Path in;

        @Parameters(index = "1", paramLabel = "<out.zkey>")
        Path out;

        @Parameters(index = "2", paramLabel = "<beaconHash>", description = "hexadecimal, 1 to 255 bytes")
        String beacon;

        @Parameters(index = "3", paramLabel = "<numIterationsExp>", description = "10 to 63")
        int exp;

        @Option(names = {"-n", "--name"}, description = "the contribution's name (at most 64 characters are kept)")
        String name;

        @Override
        public Integer call() throws IOException {
            PhaseTwo.Result r = PhaseTwo.beacon(in, out, name, beacon, exp, CeremonyOutput.progress(spec));
            CeremonyOutput.print(spec, HexFormatting.hashBlock("Contribution Hash: ", r.contributionHash()));
            return 0;
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = {"Check a .zkey as `snarkjs zkey verify` does: the chain of contributions, delta, and that"
                + " the key is the circuit's and the powers of tau's.",
                "Exit codes: 0 valid, 1 refused (the reason on stderr)."})
    static final class Verify implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit.r1cs>")
        Path r1cs;

        @Parameters(index = "1", paramLabel = "<prepared.ptau>")
        Path ptau;

        @Parameters(index = "2", paramLabel = "<circuit.zkey>")
        Path zkey;

        @Override
        public Integer call() throws IOException {
            List<String> report;
            var progress = CeremonyOutput.barOnly(spec);
            try {
                report = ZkeyVerifier.verify(r1cs, ptau, zkey, progress);
            } catch (FormatException e) {
                progress.done(1);   // the bar, if drawn, gives way to the reason
                spec.commandLine().getErr().println("INVALID: " + e.getMessage());
                spec.commandLine().getErr().flush();
                return 1;
            }
            CeremonyOutput.print(spec, report.toArray(String[]::new));
            return 0;
        }
    }

    @Command(name = "bellman", mixinStandardHelpOptions = true,
            description = {"Write a phase-2 key as the MPC parameters of the bellman ceremony tools (phase2-bn254"
                + " and its kin), byte for byte what `snarkjs zkey export bellman` writes, for a contribution made"
                + " with those tools; `zkey import bellman` brings it back."})
    static final class ExportBellman implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit.zkey>")
        Path zkey;

        @Parameters(index = "1", paramLabel = "<circuit.mpcparams>")
        Path out;

        @Override
        public Integer call() throws IOException {
            CommandModel.outputsWritable(out);
            BellmanParams.export(zkey, out, CeremonyOutput.progress(spec));
            return 0;
        }
    }

    @Command(name = "bellman", mixinStandardHelpOptions = true,
            description = {"Make a new .zkey from the old one and MPC parameters that a bellman ceremony tool"
                + " contributed to (exported from the old key with `zkey export bellman`): byte for byte what"
                + " `snarkjs zkey import bellman` writes. The parameters must be the old key's circuit and"
                + " continue its contributions; check the new key with `zkey verify`."})
    static final class ImportBellman implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit_old.zkey>")
        Path in;

        @Parameters(index = "1", paramLabel = "<circuit.mpcparams>")
        Path params;

        @Parameters(index = "2", paramLabel = "<circuit_new.zkey>")
        Path out;

        @Option(names = {"-n", "--name"}, description = "the new contributions' name (at most 64 characters are kept)")
        String name;

        @Override
        public Integer call() throws IOException {
            CommandModel.outputsWritable(out);
            int added = BellmanParams.importParams(in, params, out, name, CeremonyOutput.progress(spec));
            spec.commandLine().getErr().printf("%s written: %d new contribution%s imported%n", out, added,
                    added == 1 ? "" : "s");
            return 0;
        }
    }

    @Command(name = "contribute", mixinStandardHelpOptions = true,
            description = {"Add a contribution to MPC parameters (as `zkey export bellman` writes them), as `snarkjs"
                + " zkey bellman contribute` does: delta times a secret, H and L divided by it, and the"
                + " contribution's public key appended. The secret is from the operating system's secure source,"
                + " mixed with the entropy text if one is given, and overwritten once the file is written."})
    static final class BellmanContribute implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<curve>", description = "bn128 or bls12381: the parameters'")
        String curve;

        @Parameters(index = "1", paramLabel = "<circuit.mpcparams>")
        Path challenge;

        @Parameters(index = "2", paramLabel = "<circuit_response.mpcparams>")
        Path response;

        @Option(names = {"-e", "--entropy"}, description = "extra entropy text, mixed with the system's")
        String entropy = "";

        @Override
        public Integer call() throws IOException {
            PairingCurve c = PairingCurve.bySnarkjsName(curve).orElseThrow(
                    () -> new IllegalArgumentException("unknown curve " + curve + " (bn128 or bls12381)"));
            CommandModel.outputsWritable(response);
            byte[] hash = BellmanContribution.contribute(c, challenge, response, entropy,
                    CeremonyOutput.progress(spec));
            CeremonyOutput.print(spec, HexFormatting.hashBlock("Contribution Hash: ", hash));
            return 0;
        }
    }
}
