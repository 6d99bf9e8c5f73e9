package dev.proofline.lab;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ProvingAssignment;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.pce.Pce;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline bench synth}: the enforce path against the PCE path on one circuit, one JSON line.
 * Enforce = synthesis evaluating every constraint; PCE = witness-only synthesis plus the sparse
 * products with matrices recorded beforehand (their one-time extraction is reported apart).
 */
@Command(name = "synth", mixinStandardHelpOptions = true,
        description = "Time synthesis: the enforce path against the PCE (witness-only synthesis + sparse products).")
final class SynthBenchCommand implements Callable<Integer> {

    @Option(names = "--circuit", defaultValue = "builtin:merkle-post", description = "the built-in circuit to"
            + " synthesize: builtin:merkle-post (Merkle inclusion proofs, as in a proof of storage)")
    String circuit;

    @Option(names = "--constraints", defaultValue = "65536", description = "at least this many constraints")
    long constraints;

    @Option(names = "--curve", defaultValue = "bn254", description = "bn254 (alias bn128) or bls12381")
    String curve;

    @Option(names = "--depth", defaultValue = "30", description = "merkle-post: levels of each Merkle path (default:"
            + " ${DEFAULT-VALUE})")
    int depth;

    @Option(names = "--sha256-leaves", description = "leaves are SHA-256 of 32 private data bytes (merkle-post)")
    boolean sha256Leaves;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the random instance (the same seed, the"
            + " same witness)")
    long seed;

    @Option(names = "--reps", defaultValue = "3", description = "timed repetitions (median), after a warm-up")
    int reps;

    @Option(names = "--json", description = "JSON only (the default output is JSON as well; kept for scripts)")
    boolean json;

    @Override
    public Integer call() {
        PairingCurve c = Builtins.curve(curve);
        // warm-up on a small instance of the same circuit, both paths
        Circuit small = Builtins.circuit(circuit, c, 4096, depth, sha256Leaves, seed + 1);
        R1cs smallR1cs = RecordingSystem.record(c, small);
        for (int i = 0; i < 3; i++) {
            ProvingAssignment.synthesize(c, small);
            new Pce(smallR1cs).evaluate(WitnessSystem.witness(c, small));
        }
        Circuit circ = Builtins.circuit(circuit, c, constraints, depth, sha256Leaves, seed);
        long t0 = System.nanoTime();
        R1cs r1cs = RecordingSystem.record(c, circ);
        Pce pce = new Pce(r1cs);
        double extractMs = (System.nanoTime() - t0) / 1e6;
        double[] enforce = new double[reps];
        double[] witness = new double[reps];
        double[] spmv = new double[reps];
        boolean identical = true;
        for (int i = 0; i < reps; i++) {
            long a = System.nanoTime();
            ProvingAssignment.Result e = ProvingAssignment.synthesize(c, circ);
            long b = System.nanoTime();
            Witness w = WitnessSystem.witness(c, circ);
            long d = System.nanoTime();
            Pce.Evaluation ev = pce.evaluate(w);
            long f = System.nanoTime();
            enforce[i] = (b - a) / 1e6;
            witness[i] = (d - b) / 1e6;
            spmv[i] = (f - d) / 1e6;
            identical &= e.firstUnsatisfied() == null && Arrays.equals(e.witness().words(), w.words())
                    && Arrays.equals(e.a(), ev.a()) && Arrays.equals(e.b(), ev.b()) && Arrays.equals(e.c(), ev.c());
        }
        double enforceMs = median(enforce);
        double witnessMs = median(witness);
        double spmvMs = median(spmv);
        double total = witnessMs + spmvMs;
        System.out.printf(Locale.ROOT, "{\"circuit\":\"%s\",\"curve\":\"%s\",\"constraints\":%d,\"wires\":%d,\"terms\":%d,"
                + "\"enforce_ms\":%.1f,\"pce_witness_ms\":%.1f,\"pce_spmv_ms\":%.1f,\"pce_total_ms\":%.1f,"
                + "\"pce_extract_ms\":%.1f,\"speedup\":%.2f,\"identical\":%b,\"unit_coefficients\":%.3f,\"distinct_coefficients\":%d,\"rows_copied\":%d,"
                + "\"threads\":%d,\"reps\":%d}%n", circuit, c.snarkjsName(), r1cs.constraintCount(), r1cs.wireCount(),
                (long) r1cs.a().terms() + r1cs.b().terms() + r1cs.c().terms(),
                enforceMs, witnessMs, spmvMs, total, extractMs, enforceMs / total, identical, pce.unitFraction(), pce.distinctCoefficients(), pce.repeatedRowCount(),
                Runtime.getRuntime().availableProcessors(), reps);
        return identical ? 0 : 1;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
