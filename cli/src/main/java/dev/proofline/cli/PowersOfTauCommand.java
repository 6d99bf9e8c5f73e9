package dev.proofline.cli;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.ceremony.ChallengeResponse;
import dev.proofline.groth16.ceremony.HexFormatting;
import dev.proofline.groth16.ceremony.PhaseTwoPreparation;
import dev.proofline.groth16.ceremony.PowersOfTau;
import dev.proofline.groth16.ceremony.PtauVerifier;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline powersoftau}: the first phase of the trusted setup, on snarkjs's .ptau files. */
@Command(name = "powersoftau", mixinStandardHelpOptions = true,
        description = {"Powers of tau (phase 1 of the Groth16 trusted setup) with snarkjs's arguments and .ptau files:"
            + " each step interoperates with `snarkjs powersoftau` (docs/setup.md)."},
        subcommands = {PowersOfTauCommand.New.class, PowersOfTauCommand.Contribute.class,
            PowersOfTauCommand.Beacon.class, PowersOfTauCommand.Verify.class, PowersOfTauCommand.Prepare.class,
            PowersOfTauCommand.Export.class, PowersOfTauCommand.Import.class})
final class PowersOfTauCommand extends ParentCommand {

    private static void print(CommandSpec spec, PowersOfTau.Result r) {
        CeremonyOutput.print(spec, HexFormatting.hashBlock("Contribution Response Hash imported: ", r.responseHash()),
                HexFormatting.hashBlock("Next Challenge Hash: ", r.nextChallenge()));
    }

    @Command(name = "new", mixinStandardHelpOptions = true,
            description = "Start a ceremony: a .ptau of 2^power whose every power of tau is the generator.")
    static final class New implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<curve>", description = "bn128 or bls12381")
        String curve;

        @Parameters(index = "1", paramLabel = "<power>")
        int power;

        @Parameters(index = "2", paramLabel = "<new.ptau>")
        Path out;

        @Override
        public Integer call() throws IOException {
            PairingCurve c = PairingCurve.bySnarkjsName(curve).orElseThrow(
                    () -> new IllegalArgumentException("unknown curve " + curve + " (bn128 or bls12381)"));
            byte[] first = PowersOfTau.newAccumulator(c, power, out);
            spec.commandLine().getOut().println(HexFormatting.hashBlock("First Contribution Hash:", first));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    @Command(name = "contribute", mixinStandardHelpOptions = true,
            description = {"Add a contribution: secrets from the operating system's secure source, mixed with the"
                + " entropy text if one is given; they are overwritten when the file is written."})
    static final class Contribute implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<old.ptau>")
        Path in;

        @Parameters(index = "1", paramLabel = "<new.ptau>")
        Path out;

        @Option(names = {"-n", "--name"}, description = "the contribution's name (at most 64 characters are kept)")
        String name;

        @Option(names = {"-e", "--entropy"}, description = "extra entropy text, mixed with the system's")
        String entropy = "";

        @Override
        public Integer call() throws IOException {
            print(spec, PowersOfTau.contribute(in, out, name, entropy, CeremonyOutput.progress(spec)));
            return 0;
        }
    }

    @Command(name = "beacon", mixinStandardHelpOptions = true,
            description = "Add the final contribution from a public random beacon: SHA-256 iterated"
                    + " 2^numIterationsExp times over the beacon hash gives the secrets, so anyone can recompute them.")
    static final class Beacon implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<old.ptau>")
        Path in;

        @Parameters(index = "1", paramLabel = "<new.ptau>")
        Path out;

        @Parameters(index = "2", paramLabel = "<beaconHash>", description = "hexadecimal, 1 to 255 bytes")
        String beacon;

        @Parameters(index = "3", paramLabel = "<numIterationsExp>", description = "10 to 63")
        int exp;

        @Option(names = {"-n", "--name"}, description = "the contribution's name (at most 64 characters are kept)")
        String name;

        @Override
        public Integer call() throws IOException {
            print(spec, PowersOfTau.beacon(in, out, name, beacon, exp, CeremonyOutput.progress(spec)));
            return 0;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = "Export for a contribution made elsewhere.",
            subcommands = {PowersOfTauCommand.ExportChallenge.class})
    static final class Export extends ParentCommand {
    }

    @Command(name = "challenge", mixinStandardHelpOptions = true,
            description = {"Write the current challenge (the last response hash, then every point uncompressed), for a"
                + " contributor whose software answers challenges (`snarkjs powersoftau challenge contribute`);"
                + " `proofline powersoftau import response` takes the answer back."})
    static final class ExportChallenge implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<powersoftau.ptau>")
        Path in;

        @Parameters(index = "1", arity = "0..1", paramLabel = "<challenge>", description = "default: challenge")
        Path out = Path.of("challenge");

        @Override
        public Integer call() throws IOException {
            byte[] hash = ChallengeResponse.exportChallenge(in, out, CeremonyOutput.progress(spec));
            CeremonyOutput.print(spec, HexFormatting.hashBlock("Current Challenge Hash: ", hash));
            return 0;
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true, description = "Import a contribution made elsewhere.",
            subcommands = {PowersOfTauCommand.ImportResponse.class})
    static final class Import extends ParentCommand {
    }

    @Command(name = "response", mixinStandardHelpOptions = true,
            description = {"Add the contribution in a response to the ptau's current challenge: its points and its"
                + " public key, as a new contribution; `proofline powersoftau verify` then checks it."})
    static final class ImportResponse implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<old.ptau>")
        Path in;

        @Parameters(index = "1", paramLabel = "<response>")
        Path response;

        @Parameters(index = "2", paramLabel = "<new.ptau>")
        Path out;

        @Option(names = {"-n", "--name"}, description = "the contribution's name (at most 64 characters are kept)")
        String name;

        @Override
        public Integer call() throws IOException {
            print(spec, ChallengeResponse.importResponse(in, response, out, name, CeremonyOutput.progress(spec)));
            return 0;
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = {"Check a .ptau as `snarkjs powersoftau verify` does: every contribution, the points, and"
                + " the phase-2 sections if present.", "Exit codes: 0 valid, 1 refused (the reason on stderr)."})
    static final class Verify implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<file.ptau>")
        Path in;

        @Override
        public Integer call() {
            List<String> contributions;
            var progress = CeremonyOutput.progress(spec);
            try {
                contributions = PtauVerifier.verify(in, progress);
            } catch (FormatException e) {
                progress.done(1);   // the bar, if drawn, gives way to the reason
                spec.commandLine().getErr().println("INVALID: " + e.getMessage());
                spec.commandLine().getErr().flush();
                return 1;
            }
            PrintWriter out = spec.commandLine().getOut();
            contributions.forEach(c -> out.println("Contribution " + c));
            out.println("Powers of Tau Ok!");
            out.flush();
            return 0;
        }
    }

    @Command(name = "prepare", mixinStandardHelpOptions = true, description = "Phase-2 preparation.",
            subcommands = {PowersOfTauCommand.Phase2.class})
    static final class Prepare extends ParentCommand {
    }

    @Command(name = "phase2", mixinStandardHelpOptions = true,
            description = "Add the Lagrange-basis sections a phase-2 key is built from; the output is byte for byte"
                    + " what `snarkjs powersoftau prepare phase2` writes.")
    static final class Phase2 implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<old.ptau>")
        Path in;

        @Parameters(index = "1", paramLabel = "<new.ptau>")
        Path out;

        @Override
        public Integer call() throws IOException {
            long t0 = System.nanoTime();
            PhaseTwoPreparation.prepare(in, out, CeremonyOutput.progress(spec));
            spec.commandLine().getErr().printf("%s written in %.1f s%n", out, (System.nanoTime() - t0) / 1e9);
            return 0;
        }
    }
}
