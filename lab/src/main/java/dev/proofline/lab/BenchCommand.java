package dev.proofline.lab;

import dev.proofline.algebra.bls12381.Bls12381;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.Samples;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.FixedBaseTable;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code proofline bench}: times one algebra kernel at several sizes and prints one JSON line per
 * size, in the same shape as {@code interop/ffjs/bench.cjs} so that the two can be compared side by
 * side ({@code bench/compare-ffjs.sh}).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Time an algebra kernel (msm-g1, msm-g2, ntt) at the given log2 sizes, or a stage above it.",
            "The subcommands time the rest: `bench synth` synthesis (enforce against PCE), `bench engine` an"
                + " embedded engine, `bench key-tables` warm proofs with and without a key's precomputed tables."},
        subcommands = {SynthBenchCommand.class, EngineBenchCommand.class, DaemonBenchCommand.class,
            ClusterBenchCommand.class, PermitSweepCommand.class, KeyTablesBenchCommand.class})
final class BenchCommand implements Callable<Integer> {

    enum Op { msm_g1, msm_g2, ntt }

    @Parameters(index = "0", arity = "0..1", description = "msm-g1, msm-g2 or ntt")
    String op;

    @Option(names = "--curve", defaultValue = "bn254", description = "bn254 (alias bn128) or bls12381")
    String curve;

    @Option(names = "--log", split = ",", defaultValue = "16", description = "log2 sizes, comma separated")
    List<Integer> logs;

    @Option(names = "--reps", defaultValue = "3", description = "timed repetitions after the warm-up")
    int reps;

    @Option(names = "--warm-up", defaultValue = "1", description = "untimed runs first, at each size")
    int warmUp;

    @Option(names = "--window", defaultValue = "0", description = "MSM window bits, 2 to 16 (0: the cost model's choice)")
    int window;

    @Option(names = "--table", description = "MSM against precomputed multiples of the points (a resident"
            + " key's tables), built before timing, with --window bits")
    boolean table;

    @Override
    public Integer call() {
        if (op == null) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "Missing the kernel: msm-g1, msm-g2 or ntt (or the subcommand synth)");
        }
        Op kernel = Op.valueOf(op.replace('-', '_'));
        boolean bn = switch (curve.toLowerCase(Locale.ROOT)) {
            case "bn254", "bn128" -> true;
            case "bls12381", "bls12-381" -> false;
            default -> throw new IllegalArgumentException("unknown curve: " + curve);
        };
        WeierstrassCurve group = kernel == Op.msm_g1 ? (bn ? Bn254.G1 : Bls12381.G1) : (bn ? Bn254.G2 : Bls12381.G2);
        for (int log : logs) {
            Runnable run = kernel == Op.ntt ? ntt(bn ? Bn254.FR : Bls12381.FR, log) : msm(group, log);
            for (int i = 0; i < warmUp; i++) {
                run.run();
            }
            double[] ms = new double[reps];
            for (int i = 0; i < reps; i++) {
                long t0 = System.nanoTime();
                run.run();
                ms[i] = (System.nanoTime() - t0) / 1e6;
            }
            double[] sorted = ms.clone();
            Arrays.sort(sorted);
            List<String> all = new ArrayList<>();
            for (double m : ms) {
                all.add(String.format(Locale.ROOT, "%.3f", m));
            }
            System.out.printf(Locale.ROOT,
                    "{\"impl\":\"proofline\",\"curve\":\"%s\",\"op\":\"%s\",\"log\":%d,\"ms_median\":%.3f,"
                            + "\"ms_all\":[%s],\"n\":%d,\"threads\":%d%s}%n",
                    bn ? "bn128" : "bls12381", op, log, sorted[reps / 2], String.join(",", all), 1 << log,
                    Runtime.getRuntime().availableProcessors(), kernel == Op.ntt ? "" : ",\"window\":"
                            + windowBits(group, log) + (table ? ",\"table\":true" : ""));
        }
        return 0;
    }

    /** The window bits of an MSM of 2^log points as timed: the given ones, or the choice with a table or without. */
    private int windowBits(WeierstrassCurve c, int log) {
        if (window != 0) {
            return window;
        }
        int threads = Runtime.getRuntime().availableProcessors();
        return table ? FixedBaseTable.windowBits(c, 1 << log, threads, Long.MAX_VALUE)
                : Msm.on(c).windowBitsFor(1 << log);
    }

    /**
     * Bases G, 2G, 3G, ... and scalars below 2^253, as ffjavascript's benchmark uses; with {@code table},
     * against their precomputed multiples (built here, kept for the process: a benchmark's few sizes).
     */
    private Runnable msm(WeierstrassCurve c, int log) {
        long[] points = Samples.generatorMultiples(c, 1 << log);
        long[] scalars = Samples.scalarWords(1 << log, 253, 7);
        Msm.warmUp(c); // the 8-lane additions, where there are some, compiled before the first run
        Msm msm = Msm.on(c).withWindowBits(window);
        if (!table) {
            return () -> msm.multiply(points, scalars);
        }
        FixedBaseTable t = FixedBaseTable.build(c, MemorySegment.ofArray(points), 0, 1 << log, windowBits(c, log));
        return () -> msm.multiply(t, scalars, 0, 1 << log);
    }

    private static Runnable ntt(PrimeField fr, int log) {
        long[] a = Samples.fieldElements(fr, 1 << log, 9);
        Ntt.warmUp(fr); // the 8-lane kernel, where there is one, compiled before the first run
        Ntt ntt = Ntt.of(fr, log);
        return () -> ntt.forward(a);
    }
}
