package dev.proofline.cli;

import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.io.R1csFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline setup --dev}: an insecure Groth16 setup for tests and benchmarks. */
@Command(name = "setup", mixinStandardHelpOptions = true,
        description = {"Groth16 setup of a circom constraint system into a snarkjs .zkey.",
            "Only --dev exists: random secrets drawn in this process, INSECURE (anyone who knows them can forge"
                + " proofs); for tests and benchmarks where a powers-of-tau ceremony is impractical."})
final class SetupCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dev", required = true, description = "the insecure development setup (required)")
    boolean dev;

    @Parameters(index = "0", paramLabel = "<circuit.r1cs>")
    Path r1cs;

    @Parameters(index = "1", paramLabel = "<circuit.zkey>")
    Path zkey;

    @Override
    public Integer call() throws IOException {
        R1cs cs = R1csFile.read(r1cs);
        spec.commandLine().getErr().println("WARNING: development setup: the key's secrets are not from a ceremony;"
                + " proofs with " + zkey + " prove nothing to anyone else. Never use it in production.");
        long t0 = System.nanoTime();
        DevSetup.run(cs, zkey);
        spec.commandLine().getErr().printf("%s: %d constraints, %d wires, %d public, written in %.1f s%n", zkey,
                cs.constraintCount(), cs.wireCount(), cs.publicCount(), (System.nanoTime() - t0) / 1e9);
        return 0;
    }
}
