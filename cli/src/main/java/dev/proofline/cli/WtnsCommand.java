package dev.proofline.cli;

import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomInput;
import dev.proofline.r1cs.wasm.CircomWasm;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofline wtns}: circom witnesses. */
@Command(name = "wtns", mixinStandardHelpOptions = true, description = "circom witnesses (.wtns).",
        subcommands = {WtnsCommand.Calculate.class, WtnsCommand.Check.class})
final class WtnsCommand extends ParentCommand {

    /** {@code proofline wtns calculate}: as {@code snarkjs wtns calculate}, in this JVM. */
    @Command(name = "calculate", mixinStandardHelpOptions = true,
            description = {"Compute the witness of input.json with circom's witness generator (circuit.wasm, from"
                    + " circom --wasm) and write it as `snarkjs wtns calculate` does: the same bytes. The circuit's"
                    + " log() lines go to stdout.",
                "Exit codes: 0 written, 1 failure, 2 unreadable input, or input the circuit rejects."})
    static final class Calculate implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit.wasm>")
        Path wasm;

        @Parameters(index = "1", paramLabel = "<input.json>")
        Path input;

        @Parameters(index = "2", paramLabel = "<witness.wtns>")
        Path wtns;

        @Option(names = "--cache", paramLabel = "<dir>", description = "keep the JVM classes compiled from circuit.wasm"
                + " in <dir> (default: cache/wasm-classes in the state directory), so that later runs on the same"
                + " wasm skip compiling it")
        Path cache;

        @Option(names = "--timings", description = "print the time to load the wasm and to compute the witness on stderr")
        boolean timings;

        @Override
        public Integer call() throws IOException {
            String usage = "<circuit.wasm> <input.json> <witness.wtns>";
            ArgumentOrder.expect(wasm, ArgumentOrder.Kind.WASM, usage);
            ArgumentOrder.expect(input, ArgumentOrder.Kind.INPUT, usage);
            CommandModel.outputsWritable(wtns);
            long t0 = System.nanoTime();
            CircomInput in = CircomInput.read(input);
            CircomWasm circuit = Invocation.of(spec).loader().witnessGenerator(wasm, Loader.classCache(cache));
            long t1 = System.nanoTime();
            PrintWriter out = spec.commandLine().getOut();
            Witness witness = circuit.calculate(in, out::println);
            out.flush();
            long t2 = System.nanoTime();
            new OutputFiles().add(wtns, WtnsFile.write(witness)).write();
            if (timings) {
                PrintWriter err = spec.commandLine().getErr();
                err.printf("load %.0f ms, witness %.0f ms (%d values), total %.0f ms%n", (t1 - t0) / 1e6,
                        (t2 - t1) / 1e6, witness.size(), (System.nanoTime() - t0) / 1e6);
                err.flush();
            }
            return 0;
        }
    }

    /**
     * {@code proofline wtns check circuit.r1cs witness.wtns}: as {@code snarkjs wtns check}, whether the
     * witness satisfies every constraint. The facts snarkjs prints first, with its labels; then the verdict.
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Check that a witness (.wtns) satisfies every constraint of a circom .r1cs file, as"
                    + " `snarkjs wtns check` does.",
                "Exit codes: 0 the witness is correct, 1 a constraint does not hold (the first is named),"
                    + " 2 unreadable input, or a witness of another curve or size than the constraint system."})
    static final class Check implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<circuit.r1cs>")
        Path r1csFile;

        @Parameters(index = "1", paramLabel = "<witness.wtns>")
        Path wtns;

        @Override
        public Integer call() {
            String usage = "<circuit.r1cs> <witness.wtns>";
            ArgumentOrder.expect(r1csFile, ArgumentOrder.Kind.R1CS, usage);
            ArgumentOrder.expect(wtns, ArgumentOrder.Kind.WTNS, usage);
            R1cs r1cs = R1csFile.read(r1csFile);
            Witness witness = WtnsFile.read(wtns);
            PrintWriter out = spec.commandLine().getOut();
            out.println("Curve:          " + r1cs.curve().snarkjsName());
            out.println("Vars (wires):   " + r1cs.wireCount());
            out.println("Outputs:        " + r1cs.publicOutputCount());
            out.println("Public Inputs:  " + r1cs.publicInputCount());
            out.println("Private Inputs: " + r1cs.privateInputCount());
            out.println("Labels:         " + r1cs.labelCount());
            out.println("Constraints:    " + r1cs.constraintCount());
            out.println("Custom Gates:   false");   // a file with them is refused (Groth16 has none)
            int violated = r1cs.firstUnsatisfied(witness);
            if (violated < 0) {
                out.println("WITNESS IS CORRECT");
            } else {
                out.println("WITNESS IS NOT CORRECT: constraint #" + violated + " does not hold");
            }
            out.flush();
            return violated < 0 ? 0 : Main.EXIT_FAILURE;
        }
    }
}
