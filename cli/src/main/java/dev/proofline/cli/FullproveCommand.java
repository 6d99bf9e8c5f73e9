package dev.proofline.cli;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomInput;
import dev.proofline.r1cs.wasm.CircomWasm;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code proofline fullprove}: witness and proof in one step, as {@code snarkjs groth16 fullprove}. */
final class FullproveCommand implements Callable<Integer> {

    private CommandSpec spec;
    private Path input;
    private Path wasm;
    private Path zkey;
    private Path proofJson;
    private Path publicJson;
    private Path wtns;
    private Path binary;
    private Path cache;
    private boolean timings;

    private FullproveCommand() {
    }

    /** The command's model, built in code ({@link CommandModel}). */
    static CommandSpec model() {
        FullproveCommand c = new FullproveCommand();
        CommandSpec s = CommandModel.command(c, "fullprove",
                "Compute the witness of input.json with circom's witness generator (circuit.wasm) in this JVM,"
                        + " then prove with a snarkjs Groth16 key (.zkey); write proof.json and public.json as"
                        + " `snarkjs groth16 fullprove` does. The circuit's log() lines go to stdout.",
                "Exit codes: 0 proved, 1 proving failed, 2 unreadable or mismatched input, or input the circuit"
                        + " rejects.");
        CommandModel.path(s, "<input.json>");
        CommandModel.path(s, "<circuit.wasm>");
        CommandModel.path(s, "<circuit.zkey>");
        CommandModel.path(s, "<proof.json>");
        CommandModel.path(s, "<public.json>");
        CommandModel.pathOption(s, "--wtns", "<witness.wtns>", "also write the witness");
        CommandModel.binaryProofOption(s);
        CommandModel.pathOption(s, "--cache", "<dir>", "keep the JVM classes compiled from circuit.wasm"
                + " in <dir> (default: cache/wasm-classes in the state directory), so that later runs on the same"
                + " wasm skip compiling it");
        CommandModel.timingsFlag(s);
        c.spec = s;
        return s;
    }

    @Override
    public Integer call() throws IOException {
        input = CommandModel.positional(spec, 0);
        wasm = CommandModel.positional(spec, 1);
        zkey = CommandModel.positional(spec, 2);
        proofJson = CommandModel.positional(spec, 3);
        publicJson = CommandModel.positional(spec, 4);
        wtns = CommandModel.option(spec, "--wtns");
        binary = CommandModel.option(spec, "--binary");
        cache = CommandModel.option(spec, "--cache");
        timings = CommandModel.option(spec, "--timings");
        String usage = "<input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json>";
        ArgumentOrder.expect(input, ArgumentOrder.Kind.INPUT, usage);
        ArgumentOrder.expect(wasm, ArgumentOrder.Kind.WASM, usage);
        ArgumentOrder.expect(zkey, ArgumentOrder.Kind.ZKEY, usage);
        CommandModel.outputsWritable(proofJson, publicJson, wtns, binary);
        long t0 = System.nanoTime();
        CircomInput in = CircomInput.read(input);
        Proof proof;
        Witness witness;
        int nPublic;
        long t1;
        long t2;
        Invocation invocation = Invocation.of(spec);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Progress progress = new Progress(err, invocation.console());
                Loader.KeyLease lease = invocation.loader().provingKey(zkey)) {
            ProvingKey key = lease.key();
            CircomWasm circuit = invocation.loader().witnessGenerator(wasm, Loader.classCache(cache));
            t1 = System.nanoTime();
            witness = circuit.calculate(in, out::println);
            out.flush();
            t2 = System.nanoTime();
            nPublic = key.publicCount();
            try {
                proof = Prover.create().withListener(progress).prove(key, witness);
            } catch (RuntimeException e) {
                throw Loader.explain(zkey, e);
            }
        }
        long t3 = System.nanoTime();
        // all or none: a proof.json is never left without its public.json
        new OutputFiles().add(proofJson, SnarkjsJson.proofJson(proof))
                .add(publicJson, SnarkjsJson.publicJson(witness.publicSignals(nPublic)))
                .add(wtns, wtns == null ? null : WtnsFile.write(witness))
                .add(binary, binary == null ? null : ProofBinary.encode(proof)).write();
        if (timings) {
            err.printf("load %.0f ms (key and wasm), witness %.0f ms, prove %.0f ms, total %.0f ms%n",
                    (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (System.nanoTime() - t0) / 1e6);
            err.flush();
        }
        return 0;
    }
}
