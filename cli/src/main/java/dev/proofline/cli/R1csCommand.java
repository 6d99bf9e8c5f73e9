package dev.proofline.cli;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline r1cs}: constraint systems as circom files. */
@Command(name = "r1cs", mixinStandardHelpOptions = true, description = "Constraint systems as circom files (.r1cs).",
        subcommands = {R1csCommand.Export.class, R1csCommand.Info.class})
final class R1csCommand extends ParentCommand {

    /**
     * {@code proofline r1cs info circuit.r1cs}: the facts {@code snarkjs r1cs info} prints, in its order and
     * with its labels (without its log prefix), so that what reads the one reads the other.
     */
    @Command(name = "info", mixinStandardHelpOptions = true,
            description = "Print what `snarkjs r1cs info` prints of a circom .r1cs file: the curve, the"
                    + " counts of wires, constraints, private and public inputs, labels and outputs.")
    static final class Info implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit.r1cs>")
        Path r1csFile;

        @Override
        public Integer call() {
            ArgumentOrder.expect(r1csFile, ArgumentOrder.Kind.R1CS, "<circuit.r1cs>");
            R1cs r1cs = R1csFile.read(r1csFile);
            PrintWriter out = spec.commandLine().getOut();
            out.println("Curve: " + switch (r1cs.curve()) {
                case BN254 -> "bn-128";
                case BLS12_381 -> "bls12-381";
            });
            out.println("# of Wires: " + r1cs.wireCount());
            out.println("# of Constraints: " + r1cs.constraintCount());
            out.println("# of Private Inputs: " + r1cs.privateInputCount());
            out.println("# of Public Inputs: " + r1cs.publicInputCount());
            out.println("# of Labels: " + r1cs.labelCount());
            out.println("# of Outputs: " + r1cs.publicOutputCount());
            out.flush();
            return 0;
        }
    }

    /** {@code proofline r1cs export builtin:NAME ... out.r1cs out.wtns}. */
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write a built-in circuit as circom's .r1cs and the witness of a random instance as .wtns"
                    + " (snarkjs wtns check accepts the pair).")
    static final class Export implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "<circuit>", description = "builtin:merkle-post")
        String circuit;

        @Parameters(index = "1", paramLabel = "<out.r1cs>")
        Path r1csOut;

        @Parameters(index = "2", paramLabel = "<out.wtns>")
        Path wtnsOut;

        @Option(names = "--constraints", defaultValue = "1024", description = "at least this many constraints")
        long constraints;

        @Option(names = "--curve", defaultValue = "bn254", description = "bn254 (alias bn128) or bls12381")
        String curve;

        @Option(names = "--seed", defaultValue = "1", description = "seed of the random instance")
        long seed;

        @Option(names = "--depth", defaultValue = "30", description = "Merkle tree depth (merkle-post)")
        int depth;

        @Option(names = "--sha256-leaves", description = "leaves are SHA-256 of 32 private data bytes (merkle-post)")
        boolean sha256Leaves;

        @Override
        public Integer call() throws IOException {
            PairingCurve c = Builtins.curve(curve);
            Circuit circ = Builtins.circuit(circuit, c, constraints, depth, sha256Leaves, seed);
            R1cs r1cs = RecordingSystem.record(c, circ);
            Witness w = WitnessSystem.witness(c, circ);
            new OutputFiles().add(r1csOut, R1csFile.write(r1cs)).add(wtnsOut, WtnsFile.write(w)).write();
            System.err.printf("%s: %d constraints, %d wires, %d public%n", r1csOut, r1cs.constraintCount(),
                    r1cs.wireCount(), r1cs.publicCount());
            return 0;
        }
    }
}
