package dev.proofline.lab;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.cli.Main;
import dev.proofline.cli.StepClock;
import dev.proofline.groth16.KeyTables;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.Step;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.ZkeyProver;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code proofline bench key-tables}: warm proofs of one circuit with its key as it is and with the
 * key's precomputed tables ({@link KeyTables}), alternating in one JVM (the 8-lane kernels compiled
 * first, as the engine does), and the median of each step for each, one line each. With
 * {@code --in-order}, both with the tables: the steps one after the other against the MSMs beside the
 * transforms ({@link Prover#withStepsInOrder}).
 */
@Command(name = "key-tables", mixinStandardHelpOptions = true,
        description = "Time warm proofs with and without a key's precomputed tables (--in-order: with the steps in"
                + " order and side by side), alternating, per step.")
final class KeyTablesBenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<circuit.zkey>")
    Path zkey;

    @Parameters(index = "1", paramLabel = "<witness.wtns>")
    Path wtns;

    @Option(names = "--reps", defaultValue = "15", description = "timed proofs of each (median; default: ${DEFAULT-VALUE})")
    int reps;

    @Option(names = "--warm-up", defaultValue = "20", description = "untimed proofs of each first (default: ${DEFAULT-VALUE})")
    int warmUp;

    @Option(names = "--kernels", defaultValue = "true", negatable = true,
            description = "compile the 8-lane kernels first, as the engine does (default: ${DEFAULT-VALUE})")
    boolean kernels;

    @Option(names = "--bytes", defaultValue = "256MiB", description = "the tables' memory (default: ${DEFAULT-VALUE})")
    String bytes;

    @Option(names = "--in-order", description = "both with the tables: the steps one after the other against the"
            + " MSMs beside the transforms (what a domain of at most 2^16 runs)")
    boolean inOrder;

    @Override
    public Integer call() {
        if (reps < 1 || warmUp < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--reps must be at least 1 and"
                    + " --warm-up at least 0");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (ProvingKey plain = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE);
                ProvingKey tabled = ZkeyFile.open(zkey, ZkeyFile.PointCheck.NONE)) {
            Witness w = WtnsFile.read(wtns);
            PairingCurve curve = plain.curve();
            if (kernels) {
                ZkeyProver.warmUp(curve);
            }
            long t0 = System.nanoTime();
            KeyTables tables = KeyTables.build(tabled, tableBytes(bytes));
            out.printf(Locale.ROOT, "%s, built in %.0f ms%n", tables, (System.nanoTime() - t0) / 1e6);
            tabled.attach(tables);
            // the same proof either way, for the same r and s
            Prover fixed = Prover.create().withRandomness(ProofRandomness.fixedForTesting(BigInteger.valueOf(7),
                    BigInteger.valueOf(11)));
            Proof reference = fixed.prove(tabled, w);
            boolean same = fixed.prove(plain, w).equals(reference);
            out.println("the same proof with and without tables, for the same r and s: " + same);
            if (inOrder) {
                boolean inOrderSame = fixed.withStepsInOrder().prove(tabled, w).equals(reference);
                out.println("the same proof with the steps in order, for the same r and s: " + inOrderSame);
                same &= inOrderSame;
            }
            if (!same) {
                return Main.EXIT_FAILURE;
            }
            Prover[] provers = {inOrder ? Prover.create().withStepsInOrder() : Prover.create(), Prover.create()};
            ProvingKey[] keys = {inOrder ? tabled : plain, tabled};
            List<Step> steps = List.of(Step.values());
            double[][][] times = new double[2][reps][];
            for (int r = -warmUp; r < reps; r++) {
                for (int k = 0; k < 2; k++) {
                    double[] row = prove(provers[k], keys[k], w);
                    if (r >= 0) {
                        times[k][r] = row;
                    }
                }
            }
            for (int k = 0; k < 2; k++) {
                StringBuilder line = new StringBuilder(inOrder ? (k == 0 ? "steps in order:" : "side by side:  ")
                        : k == 0 ? "without tables:" : "with tables:   ");
                for (int i = 0; i <= steps.size(); i++) {
                    double[] col = new double[reps];
                    for (int r = 0; r < reps; r++) {
                        col[r] = times[k][r][i];
                    }
                    Arrays.sort(col);
                    line.append(String.format(Locale.ROOT, " %s %.1f", i < steps.size() ? steps.get(i) : "total",
                            col[reps / 2]));
                    line.append(i < steps.size() ? "," : " ms");
                }
                out.println(line);
            }
        }
        return 0;
    }

    /**
     * One proof: each step's milliseconds in the order of {@link Step} (where steps ran side by
     * side, each one's own time), then the total.
     */
    private static double[] prove(Prover prover, ProvingKey key, Witness w) {
        StepClock clock = new StepClock(step -> { });
        Prover p = prover.withListener(clock);
        long t0 = System.nanoTime();
        p.finish(p.start(key, w));
        long t1 = System.nanoTime();
        List<Step> steps = clock.steps();
        double[] ms = clock.millis(t1);
        double[] row = new double[Step.count() + 1];
        for (int i = 0; i < ms.length; i++) {
            row[steps.get(i).ordinal()] = ms[i];
        }
        row[Step.count()] = (t1 - t0) / 1e6;
        return row;
    }

    /** The bytes of the {@code --key-tables} size, or a usage error naming the option. */
    private long tableBytes(String size) {
        try {
            return dev.proofline.daemon.config.DaemonConfig.parseBytes(size);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--key-tables: " + e.getMessage());
        }
    }
}
