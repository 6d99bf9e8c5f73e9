package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.engine.CircuitJob;
import dev.proofline.engine.Circuits;
import dev.proofline.engine.Engine;
import dev.proofline.engine.Priority;
import dev.proofline.engine.ProofResult;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The GPU check ({@code scripts/gpu-check.sh}): on the first CUDA device, the kernels against the CPU
 * code (NTT, H, G1 MSM, whole proofs with fixed r and s), whole proofs through the engine on the CUDA
 * backend (every usable device, pinned buffers), then timings, printed as one table. Exit code 0 when
 * every check passed, 1 when one failed, 2 when there is no usable device.
 *
 * <pre>
 *   GpuCheck                      correctness, then benchmarks (NTT and MSM at 2^20, 2^22, 2^24; a 2^20 proof)
 *   GpuCheck --quick              correctness at small sizes only
 *   GpuCheck --sanitize           a small case for compute-sanitizer: NTT and MSM at 2^12, proofs through the engine
 *   GpuCheck --rows FILE          also puts the rows of FILE in the table (check, curve, size, result and
 *                                 ok, fail or skip, tab separated: the script's compute-sanitizer runs)
 * </pre>
 */
public final class GpuCheck {

    private final List<String[]> rows = new ArrayList<>();
    private boolean failed;

    private GpuCheck() {
    }

    public static void main(String[] args) throws Exception {
        List<String> a = Arrays.asList(args);
        boolean quick = a.contains("--quick");
        boolean sanitize = a.contains("--sanitize");
        int rowsAt = a.indexOf("--rows");
        Path extraRows = rowsAt >= 0 && rowsAt + 1 < a.size() ? Path.of(a.get(rowsAt + 1)) : null;
        GpuCheck check = new GpuCheck();
        CudaDriver.Availability av = CudaDriver.load();
        if (!(av instanceof CudaDriver.Available ok)) {
            System.out.println("no usable CUDA device: " + ((CudaDriver.Unavailable) av).reason());
            System.exit(2);
            return;
        }
        for (Device d : ok.driver().devices()) {
            System.out.printf(Locale.ROOT, "device: %s, %d MiB, compute capability %s%n", d, d.totalMemory() >> 20,
                    d.computeCapability());
        }
        Device device = ok.driver().devices().get(0);
        try (Context ctx = device.retainPrimaryContext(); GpuAccelerator gpu = new GpuAccelerator(ctx)) {
            if (sanitize) {
                check.sanitizerCase(ctx);
            } else {
                check.correctness(ctx, gpu, quick);
                if (!quick) {
                    check.benchmarks(ctx, gpu);
                }
            }
        }
        if (extraRows != null) {
            check.extraRows(extraRows);
        }
        check.print();
        System.exit(check.failed ? 1 : 0);
    }

    /** Rows from a file: check, curve, size, result, then ok, fail or skip; tab separated. */
    private void extraRows(Path file) throws java.io.IOException {
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split("\t");
            if (f.length >= 5) {
                failed |= f[4].strip().equals("fail");
                row(f[0], f[1], f[2], f[3]);
            }
        }
    }

    /**
     * What compute-sanitizer runs (slowly): the NTT on the coset and the G1 MSM at 2^12 on both curves,
     * and proofs through the engine on every device (pinned buffers, copies on their own stream), each
     * against the CPU.
     */
    private void sanitizerCase(Context ctx) throws Exception {
        for (PairingCurve curve : PairingCurve.values()) {
            PrimeField fr = curve.fr();
            int log = 12;
            try (CudaNtt ntt = CudaNtt.load(ctx)) {
                long[] a = randomVector(fr, 1 << log, log);
                long[] cpu = a.clone();
                long[] g = RootsOfUnity.snarkjsCosetShift(fr, log);
                Ntt.of(fr, log).evaluationsOnCoset(cpu, g, 0);
                ntt.evaluationsOnCoset(fr, log, a, g, 0);
                verdict("NTT evaluationsOnCoset", curve.snarkjsName(), log, Arrays.equals(cpu, a));
            }
            verdict("G1 MSM", curve.snarkjsName(), log, msmMatches(ctx, curve, 1 << log));
        }
        engineProofs(PairingCurve.BN254, 1 << 10, 2);
    }

    private void row(String what, String curve, String size, String result) {
        rows.add(new String[] {what, curve, size, result});
        System.out.printf(Locale.ROOT, "  %-34s %-9s %-6s %s%n", what, curve, size, result);
    }

    private void verdict(String what, String curve, int log, boolean ok) {
        failed |= !ok;
        row(what, curve, "2^" + log, ok ? "OK" : "MISMATCH");
    }

    private void print() {
        System.out.println();
        System.out.println("| check | curve | size | result |");
        System.out.println("|---|---|---|---|");
        for (String[] r : rows) {
            System.out.println("| " + String.join(" | ", r) + " |");
        }
        System.out.println(failed ? "FAILED" : "all checks passed");
    }

    // ------------------------------------------------------------------ correctness

    private static long[] randomVector(PrimeField f, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] v = new long[n * 4];
        BigInteger p = f.modulus();
        for (int i = 0; i < n; i++) {
            BigInteger x = new BigInteger(p.bitLength() + 8, new Random(rnd.nextLong())).mod(p);
            f.fromBigInteger(x, v, i * 4);
        }
        return v;
    }

    private void correctness(Context ctx, GpuAccelerator gpu, boolean quick) throws Exception {
        int[] logs = quick ? new int[] {10, 14} : new int[] {10, 14, 18, 20};
        for (PairingCurve curve : PairingCurve.values()) {
            PrimeField fr = curve.fr();
            try (CudaNtt ntt = CudaNtt.load(ctx)) {
                for (int log : logs) {
                    long[] a = randomVector(fr, 1 << log, log);
                    long[] cpu = a.clone();
                    long[] g = RootsOfUnity.snarkjsCosetShift(fr, log);
                    Ntt.of(fr, log).evaluationsOnCoset(cpu, g, 0);
                    ntt.evaluationsOnCoset(fr, log, a, g, 0);
                    verdict("NTT evaluationsOnCoset", curve.snarkjsName(), log, Arrays.equals(cpu, a));
                }
            }
            int[] msmLogs = quick ? new int[] {10, 12} : new int[] {10, 16, 20};
            for (int log : msmLogs) {
                verdict("G1 MSM", curve.snarkjsName(), log, msmMatches(ctx, curve, 1 << log));
            }
        }
        for (PairingCurve curve : PairingCurve.values()) {
            int log = quick ? 12 : 16;
            verdict("proof = CPU proof (fixed r, s)", curve.snarkjsName(), log, proofMatches(gpu, curve, 1 << log));
        }
        for (PairingCurve curve : PairingCurve.values()) {
            engineProofs(curve, 1 << (quick ? 12 : 16), 4);
        }
    }

    /**
     * Partitions through the engine on the CUDA backend (every usable device, pinned pool buffers, the
     * PCE and the key's coefficients), each proof against the CPU prover's with the same r and s.
     */
    private void engineProofs(PairingCurve curve, int constraints, int partitions) throws Exception {
        Setup s = setup(curve, constraints);
        Path zkey = s.dir().resolve("circuit.zkey");
        String what = "engine proofs = CPU proofs (pinned)";
        try (ProvingKey key = s.key()) {
            String size = "2^" + key.logDomainSize();
            ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(424242), BigInteger.valueOf(171717));
            List<String> why = new ArrayList<>();
            java.util.Optional<CudaBackend> opened = CudaBackend.open(Prover.create().withRandomness(rs), why::add);
            if (opened.isEmpty()) {
                failed = true;
                row(what, curve.snarkjsName(), size, "NO BACKEND: " + String.join("; ", why));
                return;
            }
            Proof cpu = Prover.create().withRandomness(rs).prove(key, s.witness());
            boolean ok = true;
            int devices;
            try (CudaBackend gpu = opened.get();
                    Engine e = new Engine(new Engine.Config(4, 2, 2, 2, Runtime.getRuntime().maxMemory() / 2, 1000),
                            gpu)) {
                devices = gpu.deviceCount();
                // the PCE (a Java circuit) and the key's coefficients (a circom registration without an r1cs)
                e.circuits().register(new Circuits.Java("pce", zkey, curve, s.circuit()));
                e.circuits().register(new Circuits.Circom("coefficients", zkey));
                List<CircuitJob.Partition> instances = new ArrayList<>();
                List<CircuitJob.Partition> witnesses = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    instances.add(new CircuitJob.Instance(s.circuit()));
                    witnesses.add(new CircuitJob.Values(s.witness()));
                }
                List<Object> proofs = new ArrayList<>();
                proofs.addAll(e.submit(new CircuitJob(e.circuits(), "pce", instances), Priority.NORMAL)
                        .await(java.time.Duration.ofMinutes(10)));
                proofs.addAll(e.submit(new CircuitJob(e.circuits(), "coefficients", witnesses), Priority.NORMAL)
                        .await(java.time.Duration.ofMinutes(10)));
                for (Object o : proofs) {
                    Proof p = ((ProofResult) o).proof();
                    ok &= Arrays.equals(cpu.a(), p.a()) && Arrays.equals(cpu.b(), p.b()) && Arrays.equals(cpu.c(), p.c());
                }
                for (String line : e.status().devices()) {
                    System.out.println("  " + line);
                }
            }
            failed |= !ok;
            row(what + ", " + devices + " device" + (devices == 1 ? "" : "s") + ", " + 2 * partitions + " proofs",
                    curve.snarkjsName(), size, ok ? "OK" : "MISMATCH");
        } finally {
            Files.deleteIfExists(zkey);
            Files.deleteIfExists(s.dir());
        }
    }

    private static long[] points(PairingCurve curve, int n) {
        var g1 = curve.g1();
        PointArithmetic pa = g1.arithmetic();
        int aw = g1.affineWidth();
        long[] out = new long[n * aw];
        long[] gen = g1.generator();
        long[] acc = new long[g1.jacobianWidth()];
        pa.fromAffine(gen, 0, acc, 0);
        long[] t = new long[aw];
        for (int i = 0; i < n; i++) {
            pa.toAffine(acc, 0, t, 0);
            System.arraycopy(t, 0, out, i * aw, aw);
            pa.addMixed(acc, 0, gen, 0, acc, 0);
        }
        return out;
    }

    private static boolean msmMatches(Context ctx, PairingCurve curve, int n) {
        long[] pts = points(curve, n);
        long[] scalars = new long[n * 4];
        SplittableRandom rnd = new SplittableRandom(n);
        BigInteger r = curve.fr().modulus();
        for (int i = 0; i < n; i++) {
            BigInteger k = i % 97 == 0 ? BigInteger.ZERO : new BigInteger(260, new Random(rnd.nextLong())).mod(r);
            for (int w = 0; w < 4; w++) {
                scalars[i * 4 + w] = k.shiftRight(64 * w).longValue();
            }
        }
        var g1 = curve.g1();
        long[] cpu = Msm.on(g1).multiply(java.lang.foreign.MemorySegment.ofArray(pts), 0, scalars, 0, n);
        byte[] image = KernelImage.load().orElseThrow();
        try (Module m = ctx.loadModule(image);
                CudaMsm msm = new CudaMsm(ctx, m, curve == PairingCurve.BN254 ? CudaMsm.Curve.BN254
                        : CudaMsm.Curve.BLS12_381);
                CudaMsm.Points p = msm.upload(pts)) {
            long[] gpu = msm.multiply(p, scalars, 0, n);
            PointArithmetic pa = g1.arithmetic();
            long[] x = new long[g1.affineWidth()];
            long[] y = new long[g1.affineWidth()];
            pa.toAffine(cpu, 0, x, 0);
            pa.toAffine(gpu, 0, y, 0);
            return Arrays.equals(x, y);
        }
    }

    /** A key and a witness for a built-in circuit of about n constraints (a development key). */
    private record Setup(ProvingKey key, Witness witness, Path dir, Circuit circuit) {
    }

    private static Setup setup(PairingCurve curve, int constraints) throws Exception {
        Circuit c = Builtins.circuit("builtin:merkle-post", curve, constraints, MerklePost.DEFAULT_DEPTH, false, 7);
        R1cs r1cs = RecordingSystem.record(curve, c);
        Path dir = Files.createTempDirectory("proofline-gpu-check");
        Path zkey = dir.resolve("circuit.zkey");
        DevSetup.run(r1cs, zkey, new Random(11));
        return new Setup(ZkeyFile.open(zkey), WitnessSystem.witness(curve, c), dir, c);
    }

    private static boolean proofMatches(GpuAccelerator gpu, PairingCurve curve, int constraints) throws Exception {
        Setup s = setup(curve, constraints);
        try (ProvingKey key = s.key()) {
            ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(123457), BigInteger.valueOf(7654321));
            Proof cpu = Prover.create().withRandomness(rs).prove(key, s.witness());
            Proof onGpu = Prover.create().withRandomness(rs).withAccelerator(gpu).prove(key, s.witness());
            gpu.forget(key);
            return Arrays.equals(cpu.a(), onGpu.a()) && Arrays.equals(cpu.b(), onGpu.b())
                    && Arrays.equals(cpu.c(), onGpu.c());
        } finally {
            Files.deleteIfExists(s.dir().resolve("circuit.zkey"));
            Files.deleteIfExists(s.dir());
        }
    }

    // ------------------------------------------------------------------ benchmarks

    private static double medianMs(int reps, Runnable r) {
        double[] t = new double[reps];
        r.run(); // warm-up
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            r.run();
            t[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(t);
        return t[reps / 2];
    }

    private void benchmarks(Context ctx, GpuAccelerator gpu) throws Exception {
        for (PairingCurve curve : PairingCurve.values()) {
            PrimeField fr = curve.fr();
            try (CudaNtt ntt = CudaNtt.load(ctx)) {
                for (int log : new int[] {20, 22, 24}) {
                    long[] a = randomVector(fr, 1 << log, log);
                    double ms = medianMs(5, () -> ntt.forward(fr, log, a));
                    row("NTT forward (with copies)", curve.snarkjsName(), "2^" + log, String.format(Locale.ROOT,
                            "%.2f ms", ms));
                }
            }
            byte[] image = KernelImage.load().orElseThrow();
            try (Module m = ctx.loadModule(image);
                    CudaMsm msm = new CudaMsm(ctx, m, curve == PairingCurve.BN254 ? CudaMsm.Curve.BN254
                            : CudaMsm.Curve.BLS12_381)) {
                int max = 1 << 24;
                long[] pts = points(curve, 1 << 16);
                long[] big = new long[(long) max * curve.g1().affineWidth() > Integer.MAX_VALUE ? 0
                        : max * curve.g1().affineWidth()];
                for (int i = 0; i < max; i++) {
                    int aw = curve.g1().affineWidth();
                    System.arraycopy(pts, (i & 0xFFFF) * aw, big, i * aw, aw);
                }
                try (CudaMsm.Points p = msm.upload(big)) {
                    for (int log : new int[] {20, 22, 24}) {
                        int n = 1 << log;
                        long[] scalars = new long[n * 4];
                        SplittableRandom rnd = new SplittableRandom(log);
                        for (int i = 0; i < n * 4; i++) {
                            scalars[i] = rnd.nextLong();
                        }
                        for (int i = 0; i < n; i++) {
                            scalars[i * 4 + 3] &= 0x0FFFFFFFFFFFFFFFL; // below r
                        }
                        double ms = medianMs(5, () -> msm.multiply(p, scalars, 0, n));
                        row("G1 MSM (points resident)", curve.snarkjsName(), "2^" + log, String.format(Locale.ROOT,
                                "%.2f ms", ms));
                    }
                }
            }
        }
        for (PairingCurve curve : PairingCurve.values()) {
            Setup s = setup(curve, 1 << 20);
            try (ProvingKey key = s.key()) {
                Prover gpuProver = Prover.create().withAccelerator(gpu);
                double start = medianMs(3, () -> gpuProver.start(key, s.witness()));
                Prover.Started st = gpuProver.start(key, s.witness());
                long t0 = System.nanoTime();
                gpuProver.finish(st);
                double finish = (System.nanoTime() - t0) / 1e6;
                double cpu = medianMs(1, () -> Prover.create().start(key, s.witness()));
                row("proof 2^20 constraints: start (GPU)", curve.snarkjsName(), "2^" + key.logDomainSize(),
                        String.format(Locale.ROOT, "%.1f ms (CPU start %.0f ms)", start, cpu));
                row("proof 2^20 constraints: finish (CPU)", curve.snarkjsName(), "2^" + key.logDomainSize(),
                        String.format(Locale.ROOT, "%.1f ms", finish));
                gpu.forget(key);
            } finally {
                Files.deleteIfExists(s.dir().resolve("circuit.zkey"));
                Files.deleteIfExists(s.dir());
            }
        }
    }
}
