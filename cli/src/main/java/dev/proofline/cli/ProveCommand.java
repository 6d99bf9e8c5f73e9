package dev.proofline.cli;

import dev.proofline.groth16.Proof;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.Step;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ProofBinary;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code proofline prove}: a Groth16 proof from a snarkjs key and a circom witness, as snarkjs writes it. */
final class ProveCommand implements Callable<Integer> {

    private CommandSpec spec;
    private Path zkey;
    private Path wtns;
    private Path proofJson;
    private Path publicJson;
    private Path binary;
    private boolean timings;
    private int repeat;

    private ProveCommand() {
    }

    /** The command's model, built in code ({@link CommandModel}). */
    static CommandSpec model() {
        ProveCommand c = new ProveCommand();
        CommandSpec s = CommandModel.command(c, "prove",
                "Prove with a snarkjs Groth16 key (.zkey) and a witness (.wtns); write proof.json and"
                        + " public.json as `snarkjs groth16 prove` does. The proof is verified before it is written.",
                "Exit codes: 0 proved, 1 proving failed, 2 unreadable or mismatched input.");
        CommandModel.path(s, "<circuit.zkey>");
        CommandModel.path(s, "<witness.wtns>");
        CommandModel.path(s, "<proof.json>");
        CommandModel.path(s, "<public.json>");
        CommandModel.binaryProofOption(s);
        CommandModel.timingsFlag(s);
        CommandModel.intOption(s, "--repeat", "<n>", 1,
                "prove n times in this process (the last proof is written); with --timings, each"
                        + " run's phases: later runs show a warm JVM (the daemon and the local engine also"
                        + " compile the 8-lane kernels first, where the JVM has the Vector module)");
        c.spec = s;
        return s;
    }

    @Override
    public Integer call() throws IOException {
        zkey = CommandModel.positional(spec, 0);
        wtns = CommandModel.positional(spec, 1);
        proofJson = CommandModel.positional(spec, 2);
        publicJson = CommandModel.positional(spec, 3);
        binary = CommandModel.option(spec, "--binary");
        timings = CommandModel.option(spec, "--timings");
        repeat = CommandModel.option(spec, "--repeat");
        String usage = "<circuit.zkey> <witness.wtns> <proof.json> <public.json>";
        ArgumentOrder.expect(zkey, ArgumentOrder.Kind.ZKEY, usage);
        ArgumentOrder.expect(wtns, ArgumentOrder.Kind.WTNS, usage);
        CommandModel.outputsWritable(proofJson, publicJson, binary);
        if (repeat < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--repeat must be at least 1, not " + repeat);
        }
        for (int run = 1; run <= repeat; run++) {
            proveOnce(run);
        }
        return 0;
    }

    private void proveOnce(int run) throws IOException {
        long t0 = System.nanoTime();
        Proof proof;
        Witness witness;
        int nPublic;
        long t1;
        StepClock clock;
        Invocation invocation = Invocation.of(spec);
        PrintWriter err = spec.commandLine().getErr();
        try (Progress progress = new Progress(err, invocation.console());
                Loader.KeyLease lease = invocation.loader().provingKey(zkey)) {
            ProvingKey key = lease.key();
            witness = WtnsFile.read(wtns);
            nPublic = key.publicCount();
            t1 = System.nanoTime();
            clock = new StepClock(progress);
            Prover prover = Prover.create().withListener(clock);
            try {
                proof = prover.finish(prover.start(key, witness));
            } catch (RuntimeException e) {
                throw Loader.explain(zkey, e);
            }
            lease.provedWith(wtns);
        }
        long t2 = System.nanoTime();
        if (run == repeat) {
            // all or none: a proof.json is never left without its public.json
            new OutputFiles().add(proofJson, SnarkjsJson.proofJson(proof))
                    .add(publicJson, SnarkjsJson.publicJson(witness.publicSignals(nPublic)))
                    .add(binary, binary == null ? null : ProofBinary.encode(proof)).write();
        }
        if (timings) {
            StringBuilder line = new StringBuilder(repeat > 1 ? "run " + run + ": " : "");
            line.append(String.format("load %.0f ms", (t1 - t0) / 1e6));
            List<Step> steps = clock.steps();
            double[] ms = clock.millis(t2);
            for (int i = 0; i < steps.size(); i++) {
                line.append(String.format(", %s %.0f", steps.get(i), ms[i]));
            }
            line.append(String.format(", total %.0f ms", (System.nanoTime() - t0) / 1e6));
            if (clock.overlapped()) {
                line.append(" (the transforms and the MSMs A, B1, C, B2 side by side, each step's own time)");
            }
            err.println(line);
            err.flush();
        }
    }
}
