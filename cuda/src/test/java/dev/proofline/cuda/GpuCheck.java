package dev.proofline.cuda;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.Priority;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.DeviceBackendAdapter;
import dev.proofline.engine.groth16.ProofResult;
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
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * every check passed, 1 when one failed, 2 when there is no usable device. A program of this module's
 * tests, run from its test jar (which {@code scripts/gpu-bundle.sh} puts beside the proving jars), so
 * that no production jar carries it.
 *
 * <pre>
 *   GpuCheck                      correctness, then benchmarks (NTT and G1 MSM at 2^20, 2^22, 2^24; G2 MSM
 *                                 at 2^16 and 2^20 against the CPU's; a 2^20 proof; 2^16 proofs through the
 *                                 engine: proofs a second, devices' busy share)
 *   GpuCheck --quick              correctness at small sizes only
 *   GpuCheck --sanitize           a small case for compute-sanitizer: NTT and MSM at 2^12, proofs through the engine
 *   GpuCheck --ncu-case           one BN254 G1 MSM at 2^22, twice: the case ncu reads the counters of
 *   GpuCheck --engine             a BN254 2^16 proof's steps (B in G2 on the GPU), then 2^16 proofs a second
 *                                 through the engine at 1, 2 and 4 lanes a device
 *   GpuCheck --proof CURVE        the 2^20 proof and the G2 MSM of one curve (bn128 or bls12381)
 *   GpuCheck --profile            correctness at small sizes, then the MSM's steps and window sizes at 2^20 to 2^24
 *                                 and a BN254 2^20 proof's MSM steps
 *   GpuCheck --rows FILE          also puts the rows of FILE in the table (check, curve, size, result and
 *                                 ok, fail or skip, tab separated: the script's compute-sanitizer runs)
 * </pre>
 */
public final class GpuCheck {

    private static final long STARTED = System.nanoTime();

    private final List<String[]> rows = new ArrayList<>();
    /** An accelerator that computes B in G2 on the device too ({@link CudaBackend#G2_PROPERTY}). */
    private GpuAccelerator withG2;
    /** An accelerator that leaves a, b, c to the CPU ({@link CudaBackend#ABC_PROPERTY} false). */
    private GpuAccelerator abcOnCpu;
    private boolean failed;

    private GpuCheck() {
    }

    public static void main(String[] args) throws Exception {
        List<String> a = Arrays.asList(args);
        boolean quick = a.contains("--quick");
        boolean sanitize = a.contains("--sanitize");
        boolean profile = a.contains("--profile");
        boolean counters = a.contains("--ncu-case");
        boolean engine = a.contains("--engine");
        boolean windows = a.contains("--windows");
        int proofAt = a.indexOf("--proof");
        PairingCurve proofCurve = proofAt >= 0 && proofAt + 1 < a.size() ? curveNamed(a.get(proofAt + 1)) : null;
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
        try (Context ctx = device.retainPrimaryContext(); GpuAccelerator gpu = new GpuAccelerator(ctx);
                // (the sanitizer's and the counters' cases need no second module)
                GpuAccelerator gpuG2 = sanitize || counters ? null
                        : new GpuAccelerator(ctx, KernelImage.load().orElseThrow(), true, true);
                GpuAccelerator gpuCpuAbc = sanitize || counters ? null
                        : new GpuAccelerator(ctx, KernelImage.load().orElseThrow(), false, false)) {
            check.withG2 = gpuG2;
            check.abcOnCpu = gpuCpuAbc;
            if (sanitize) {
                check.sanitizerCase(ctx);
            } else if (counters) {
                check.counterCase(ctx);
            } else if (windows) {
                for (PairingCurve curve : PairingCurve.values()) {
                    for (MsmGroup group : List.of(MsmGroup.g1(curve), MsmGroup.g2(curve))) {
                        check.section("MSM window sizes", curve.snarkjsName(), () -> check.windowSweep(ctx, group));
                    }
                }
            } else if (engine || proofCurve != null) {
                if (engine) {
                    check.section("proof 2^16", "bn128", () -> check.smallProof(PairingCurve.BN254));
                    check.section("engine throughput", "bn128",
                            () -> check.engineThroughput(PairingCurve.BN254, 1 << 16, 300));
                }
                if (proofCurve != null) {
                    check.section("proof 2^20", proofCurve.snarkjsName(), () -> check.proofBenchmark(ctx, gpu, proofCurve,
                            false));
                    check.section("G2 MSM", proofCurve.snarkjsName(), () -> check.g2Benchmarks(ctx, proofCurve));
                }
            } else if (profile) {
                check.correctness(ctx, gpu, true);
                for (PairingCurve curve : PairingCurve.values()) {
                    check.verdict("G1 MSM", curve.snarkjsName(), 20, msmMatches(ctx, curve, 1 << 20));
                }
                check.benchmarks(ctx, gpu, true);
            } else {
                check.correctness(ctx, gpu, quick);
                if (!quick) {
                    check.benchmarks(ctx, gpu, false);
                }
            }
        }
        if (extraRows != null) {
            check.extraRows(extraRows);
        }
        check.print();
        System.exit(check.failed ? 1 : 0);
    }

    private static PairingCurve curveNamed(String name) {
        for (PairingCurve c : PairingCurve.values()) {
            if (c.snarkjsName().equals(name) || c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--proof " + name + ": expected bn128 or bls12381");
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
        System.out.printf(Locale.ROOT, "  [%6.1f s] %-34s %-9s %-6s %s%n", (System.nanoTime() - STARTED) / 1e9, what,
                curve, size, result);
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

    /**
     * n random elements of {@code f}, 4 words each, below 2^(bits - 1) and so below the modulus: field
     * elements in their stored (Montgomery) form, or canonical scalars for an MSM.
     */
    private static long[] randomVector(PrimeField f, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] v = new long[n * 4];
        long top = -1L >>> (64 - (f.modulus().bitLength() - 1 - 192));
        for (int i = 0; i < n * 4; i++) {
            v[i] = (i & 3) == 3 ? rnd.nextLong() & top : rnd.nextLong();
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
            for (int log : quick ? new int[] {10} : new int[] {10, 14}) {
                verdict("G2 MSM", curve.snarkjsName(), log, msmMatches(ctx, MsmGroup.g2(curve), 1 << log));
            }
        }
        for (PairingCurve curve : PairingCurve.values()) {
            int log = quick ? 12 : 16;
            String name = curve.snarkjsName();
            section("proof = CPU proof (fixed r, s)", name,
                    () -> verdict("proof = CPU proof (fixed r, s)", name, log, proofMatches(gpu, curve, 1 << log)));
            section("same, B in G2 on the GPU", name,
                    () -> verdict("same, B in G2 on the GPU", name, log, proofMatches(withG2, curve, 1 << log)));
            section("a, b, c on the GPU = CPU's (prepare, start)", name,
                    () -> verdict("a, b, c on the GPU = CPU's (prepare, start)", name, log,
                            abcMatches(gpu, curve, 1 << log)));
        }
        for (PairingCurve curve : PairingCurve.values()) {
            section("engine proofs = CPU proofs (pinned)", curve.snarkjsName(),
                    () -> engineProofs(curve, 1 << (quick ? 12 : 16), 4));
        }
    }

    /**
     * Partitions through the engine on the CUDA backend (every usable device, pinned pool buffers), each
     * proof against the CPU prover's with the same r and s: a Java circuit and a circom registration with
     * a, b, c on the device from the key's coefficients, then the Java circuit on a backend with
     * {@code abc_on_device} off (its PCE writes a, b, c into the pinned buffers).
     */
    private void engineProofs(PairingCurve curve, int constraints, int partitions) throws Exception {
        Setup s = setup(curve, constraints);
        Path zkey = s.dir().resolve("circuit.zkey");
        String what = "engine proofs = CPU proofs (pinned)";
        try (ProvingKey key = s.key()) {
            String size = "2^" + key.logDomainSize();
            ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(424242), BigInteger.valueOf(171717));
            Proof cpu = Prover.create().withRandomness(rs).prove(key, s.witness());
            boolean ok = true;
            int devices = 0;
            int proved = 0;
            for (boolean abcOnDevice : new boolean[] {true, false}) {
                java.util.Optional<CudaBackend> opened = backend(abcOnDevice, 2,
                        what, curve, size);
                if (opened.isEmpty()) {
                    return;
                }
                EngineConfig cfg = EngineConfig.builder().permits(4).synthesisThreads(2).proverWorkers(2)
                        .finalizerThreads(2).budgetBytes(Runtime.getRuntime().maxMemory() / 2).timelineCapacity(1000)
                        .build();
                try (CudaBackend gpu = opened.get();
                        var e = new Engine<>(cfg, DeviceBackendAdapter.of(gpu, Prover.create().withRandomness(rs)))) {
                    devices = gpu.gpus().size();
                    Circuits.of(e).register(new Circuits.Java("java", zkey, curve, s.circuit()));
                    Circuits.of(e).register(new Circuits.Circom("coefficients", zkey));
                    List<CircuitJob.Partition> instances = new ArrayList<>();
                    List<CircuitJob.Partition> witnesses = new ArrayList<>();
                    for (int p = 0; p < partitions; p++) {
                        instances.add(new CircuitJob.Instance(s.circuit()));
                        witnesses.add(new CircuitJob.Values(s.witness()));
                    }
                    List<ProofResult> proofs = new ArrayList<>();
                    proofs.addAll(e.submit(new CircuitJob(Circuits.of(e), "java", instances), Priority.NORMAL)
                            .await(java.time.Duration.ofMinutes(10)));
                    if (abcOnDevice) {
                        proofs.addAll(e.submit(new CircuitJob(Circuits.of(e), "coefficients", witnesses),
                                Priority.NORMAL).await(java.time.Duration.ofMinutes(10)));
                    }
                    for (ProofResult r : proofs) {
                        Proof p = r.proof();
                        ok &= Arrays.equals(cpu.a(), p.a()) && Arrays.equals(cpu.b(), p.b())
                                && Arrays.equals(cpu.c(), p.c());
                    }
                    proved += proofs.size();
                    for (String line : e.status().devices()) {
                        System.out.println("  " + line);
                    }
                }
            }
            failed |= !ok;
            row(what + ", " + devices + " device" + (devices == 1 ? "" : "s") + ", 2 lanes each, " + proved
                    + " proofs (a, b, c on the GPU and by the PCE)", curve.snarkjsName(), size, ok ? "OK" : "MISMATCH");
        } finally {
            Files.deleteIfExists(zkey);
            Files.deleteIfExists(s.dir());
        }
    }

    /** G, 2G, ..., nG in affine form on {@code g1} (G1 or G2; one batch inversion per 4096 points). */
    private static long[] points(WeierstrassCurve g1, int n) {
        PointArithmetic pa = g1.arithmetic();
        int aw = g1.affineWidth();
        int jw = g1.jacobianWidth();
        long[] out = new long[n * aw];
        long[] gen = g1.generator();
        int chunk = 4096;
        long[] acc = new long[chunk * jw];
        pa.fromAffine(gen, 0, acc, 0);
        for (int base = 0; base < n; base += chunk) {
            int m = Math.min(chunk, n - base);
            for (int i = 1; i < m; i++) {
                pa.addMixed(acc, (i - 1) * jw, gen, 0, acc, i * jw);
            }
            pa.batchToAffine(acc, 0, out, base * aw, m);
            pa.addMixed(acc, (m - 1) * jw, gen, 0, acc, 0);
        }
        return out;
    }

    private static boolean msmMatches(Context ctx, PairingCurve curve, int n) {
        return msmMatches(ctx, MsmGroup.g1(curve), n);
    }

    /** The MSM of n points and random scalars (every 97th zero) on the device against the Java MSM. */
    private static boolean msmMatches(Context ctx, MsmGroup group, int n) {
        PairingCurve curve = group.pairingCurve();
        var g1 = group.group();
        long[] pts = points(g1, n);
        long[] scalars = new long[n * 4];
        SplittableRandom rnd = new SplittableRandom(n);
        BigInteger r = curve.fr().modulus();
        for (int i = 0; i < n; i++) {
            BigInteger k = i % 97 == 0 ? BigInteger.ZERO : new BigInteger(260, new Random(rnd.nextLong())).mod(r);
            for (int w = 0; w < 4; w++) {
                scalars[i * 4 + w] = k.shiftRight(64 * w).longValue();
            }
        }
        long[] cpu = Msm.on(g1).multiply(MemorySegment.ofArray(pts), 0, scalars, 0, n);
        byte[] image = KernelImage.load().orElseThrow();
        try (Module m = ctx.loadModule(image);
                CudaMsm msm = new CudaMsm(ctx, m, group);
                ResidentPoints p = msm.upload(pts)) {
            long[] gpu = msm.multiply(p, scalars, 0, n);
            PointArithmetic pa = g1.arithmetic();
            return Arrays.equals(affine(pa, g1, cpu), affine(pa, g1, gpu));
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
            Proof onGpu = AcceleratedProofs.fromHeap(gpu, Prover.create().withRandomness(rs), key, s.witness());
            gpu.forget(key);
            return Arrays.equals(cpu.a(), onGpu.a()) && Arrays.equals(cpu.b(), onGpu.b())
                    && Arrays.equals(cpu.c(), onGpu.c());
        } finally {
            Files.deleteIfExists(s.dir().resolve("circuit.zkey"));
            Files.deleteIfExists(s.dir());
        }
    }

    /**
     * A proof through prepare and start (the engine's path) with a, b, c computed on the device from the
     * key's coefficients, against the CPU prover's with the same r and s.
     */
    private static boolean abcMatches(GpuAccelerator gpu, PairingCurve curve, int constraints) throws Exception {
        Setup s = setup(curve, constraints);
        try (ProvingKey key = s.key(); Arena arena = Arena.ofConfined()) {
            ProofRandomness rs = ProofRandomness.fixedForTesting(BigInteger.valueOf(99991), BigInteger.valueOf(8887));
            Proof cpu = Prover.create().withRandomness(rs).prove(key, s.witness());
            Prover.NativeWorkspace ws = workspace(arena, key);
            Prover prover = Prover.create().withRandomness(rs);
            Prover.Prepared p = prover.prepare(key, s.witness(), ws, -1, gpu.computesAbc(key));
            long before = gpu.abcOnDevice();
            Proof onGpu = prover.finish(AcceleratedProofs.start(gpu, p));
            gpu.forget(key);
            return p.abcLeftToDevice() && gpu.abcOnDevice() == before + 1 && Arrays.equals(cpu.a(), onGpu.a())
                    && Arrays.equals(cpu.b(), onGpu.b()) && Arrays.equals(cpu.c(), onGpu.c());
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

    /**
     * The benchmarks, most wanted first (BN254's whole proof, MSMs and engine throughput, then
     * BLS12-381's, then the NTTs), each section on its own: one that throws is a failed row, and the
     * others still run.
     */
    private void benchmarks(Context ctx, GpuAccelerator gpu, boolean profile) {
        for (PairingCurve curve : PairingCurve.values()) {
            String name = curve.snarkjsName();
            if (!profile || curve == PairingCurve.BN254) {
                section("proof 2^20", name, () -> proofBenchmark(ctx, gpu, curve, profile));
            }
            section("G1 MSM", name, () -> msmBenchmarks(ctx, curve, profile));
            section("G2 MSM", name, () -> g2Benchmarks(ctx, curve));
            if (!profile && curve == PairingCurve.BN254) {
                section("proof 2^16", name, () -> smallProof(curve));
                section("engine throughput", name, () -> engineThroughput(curve, 1 << 16, 300));
            }
        }
        if (profile) {
            return;
        }
        for (PairingCurve curve : PairingCurve.values()) {
            section("NTT forward (with copies)", curve.snarkjsName(), () -> {
                PrimeField fr = curve.fr();
                try (CudaNtt ntt = CudaNtt.load(ctx)) {
                    for (int log : new int[] {20, 22, 24}) {
                        long[] a = randomVector(fr, 1 << log, log);
                        double ms = medianMs(5, () -> ntt.forward(fr, log, a));
                        row("NTT forward (with copies)", curve.snarkjsName(), "2^" + log, String.format(Locale.ROOT,
                                "%.2f ms", ms));
                    }
                }
            });
        }
    }

    /** A part of the check that may throw. */
    private interface Section {
        void run() throws Exception;
    }

    /** Runs {@code body}; when it throws, a failed row naming the exception, and the check goes on. */
    private void section(String what, String curve, Section body) {
        try {
            body.run();
        } catch (Exception | LinkageError | AssertionError e) {
            failed = true;
            e.printStackTrace(System.out);
            row(what, curve, "-", "ERROR: " + e);
        }
    }

    /**
     * One BN254 G1 MSM of 2^22 resident points with its scalars on the device, twice (the first loads
     * the module's code): the case that {@code ncu} profiles in {@code scripts/gpu-check.sh --ncu}.
     */
    private void counterCase(Context ctx) {
        PairingCurve curve = PairingCurve.BN254;
        int n = 1 << 22;
        byte[] image = KernelImage.load().orElseThrow();
        try (Module m = ctx.loadModule(image);
                CudaMsm msm = new CudaMsm(ctx, m, MsmGroup.g1(curve));
                ResidentPoints p = msm.upload(tiled(curve.g1(), 1 << 16, n));
                DeviceBuffer d = onDevice(ctx, randomVector(curve.fr(), n, 22))) {
            for (int i = 0; i < 2; i++) {
                long t0 = System.nanoTime();
                msm.multiply(p, d, 0, n, null);
                row("G1 MSM under ncu (scalars on the device)", curve.snarkjsName(), "2^22",
                        String.format(Locale.ROOT, "%.1f ms", (System.nanoTime() - t0) / 1e6));
            }
        }
    }

    /**
     * Proofs of a 2^16-constraint circuit through the engine on the CUDA backend, as the daemon runs them
     * (every usable device, B in G2 on the devices, two prover workers a lane, half the cores synthesizing
     * and half finishing): proofs a second and the lanes' busy share in steady state
     * ({@link Engine#steadyThroughputPerMs}, {@link Engine#steadyProverBusy}: the middle eight tenths of the
     * runs), and over the whole batch: from witnesses (a circom registration: a, b, c on the GPU from the
     * key's coefficients) at 1, 2 and 4 lanes a device, then from the Java circuit (synthesis computes the
     * witness; a, b, c on the GPU) and from the Java circuit with a, b, c on the CPU (its PCE evaluates
     * them in synthesis: {@code abc_on_device} off), at 2 lanes. A fresh backend and engine for each, with
     * a warm-up job of eight proofs a lane first.
     */
    private void engineThroughput(PairingCurve curve, int constraints, int proofs) throws Exception {
        Setup s = setup(curve, constraints);
        Path zkey = s.dir().resolve("circuit.zkey");
        record Variant(String id, int lanes) {
        }
        try (ProvingKey key = s.key()) {
            String size = "2^" + key.logDomainSize();
            int cores = Runtime.getRuntime().availableProcessors();
            for (Variant v : List.of(new Variant("coefficients", 1), new Variant("coefficients", 2),
                    new Variant("coefficients", 4), new Variant("java", 2), new Variant("pce", 2))) {
                String id = v.id();
                java.util.Optional<CudaBackend> opened = backend(!id.equals("pce"), v.lanes(),
                        "engine throughput", curve, size);
                if (opened.isEmpty()) {
                    return;
                }
                try (CudaBackend gpu = opened.get()) {
                    EngineConfig cfg = EngineConfig.builder().proverWorkers(2).synthesisThreads(Math.max(1, cores / 2))
                            .finalizerThreads(Math.max(1, cores / 2)).budgetBytes(Runtime.getRuntime().maxMemory() / 2)
                            .timelineCapacity(16 * (proofs + 100)).build();
                    try (var e = new Engine<>(cfg, DeviceBackendAdapter.of(gpu, Prover.create()))) {
                        boolean javaCircuit = !id.equals("coefficients");
                        Circuits.of(e).register(javaCircuit ? new Circuits.Java(id, zkey, curve, s.circuit())
                                : new Circuits.Circom(id, zkey));
                        List<CircuitJob.Partition> parts = new ArrayList<>();
                        for (int p = 0; p < proofs; p++) {
                            parts.add(javaCircuit ? new CircuitJob.Instance(s.circuit())
                                    : new CircuitJob.Values(s.witness()));
                        }
                        e.submit(new CircuitJob(Circuits.of(e), id, parts.subList(0, 8 * gpu.deviceCount())),
                                Priority.NORMAL).await(java.time.Duration.ofMinutes(10));
                        long t0 = System.nanoTime();
                        e.submit(new CircuitJob(Circuits.of(e), id, parts), Priority.NORMAL)
                                .await(java.time.Duration.ofMinutes(10));
                        double seconds = (System.nanoTime() - t0) / 1e9;
                        int devices = gpu.gpus().size();
                        String what = "engine: " + proofs + " proofs, " + devices + " device" + (devices == 1 ? "" : "s")
                                + " x " + v.lanes() + " lane" + (v.lanes() == 1 ? "" : "s") + ", " + switch (id) {
                                    case "coefficients" -> "witnesses (a, b, c on the GPU)";
                                    case "java" -> "Java circuit (a, b, c on the GPU)";
                                    default -> "Java circuit (a, b, c by its PCE on the CPU)";
                                };
                        row(what, curve.snarkjsName(), size, String.format(Locale.ROOT,
                                "%.0f proofs/s steady (%.0f%% busy), %.0f proofs/s whole batch",
                                e.steadyThroughputPerMs() * 1000, 100 * e.steadyProverBusy(), proofs / seconds));
                    }
                }
            }
        } finally {
            Files.deleteIfExists(zkey);
            Files.deleteIfExists(s.dir());
        }
    }

    /**
     * One 2^16-constraint proof as the engine runs it, key resident, B in G2 on the GPU: prepare, start,
     * finish and the whole (median of 5), and the steps of the last proof's G1 MSMs.
     */
    private void smallProof(PairingCurve curve) throws Exception {
        Setup s = setup(curve, 1 << 16);
        try (ProvingKey key = s.key(); Arena arena = Arena.ofConfined()) {
            Prover.NativeWorkspace ws = workspace(arena, key);
            String size = "2^" + key.logDomainSize();
            double[][] t = timedProofs(withG2, key, s.witness(), ws, curve, true);
            row("proof 2^16: prepare", curve.snarkjsName(), size, ms(t[0]));
            row("proof 2^16: start (GPU, B in G2 there)", curve.snarkjsName(), size, ms(t[1]));
            row("proof 2^16: finish (CPU: verify)", curve.snarkjsName(), size, ms(t[2]));
            row("proof 2^16: whole", curve.snarkjsName(), size, ms(t[3]));
            withG2.forget(key);
        } finally {
            Files.deleteIfExists(s.dir().resolve("circuit.zkey"));
            Files.deleteIfExists(s.dir());
        }
    }

    /**
     * The CUDA backend on every usable device with {@code abc_on_device} and the lanes a
     * device as given (B in G2 on the devices, the default); when
     * there is none, a failed row for {@code what} that says why, and empty.
     */
    private java.util.Optional<CudaBackend> backend(boolean abcOnDevice, int lanes, String what,
            PairingCurve curve, String size) {
        List<String> why = new ArrayList<>();
        java.util.Optional<CudaBackend> opened = CudaBackend.open(
                BackendSettings.builder().abcOnDevice(abcOnDevice).lanesPerDevice(lanes).build(), why::add);
        if (opened.isEmpty()) {
            failed = true;
            row(what, curve.snarkjsName(), size, "NO BACKEND: " + String.join("; ", why));
        }
        return opened;
    }

    /** {@code distinct} points of {@code group} (G, 2G, ...) repeated to {@code total} (a multiple of it). */
    private static long[] tiled(WeierstrassCurve group, int distinct, int total) {
        long[] pts = points(group, distinct);
        long[] all = new long[total * group.affineWidth()];
        for (int i = 0; i < all.length; i += pts.length) {
            System.arraycopy(pts, 0, all, i, pts.length);
        }
        return all;
    }

    /** A proof's native vectors for {@code key} (a, b, c and the witness), from {@code arena}. */
    private static Prover.NativeWorkspace workspace(Arena arena, ProvingKey key) {
        long vb = Prover.NativeWorkspace.vectorBytes(key);
        return new Prover.NativeWorkspace(arena.allocate(vb, 8), arena.allocate(vb, 8), arena.allocate(vb, 8),
                arena.allocate(Prover.NativeWorkspace.witnessBytes(key), 8));
    }

    /** The scalars copied to a new device buffer (as a proof's witness is there), through native memory. */
    static DeviceBuffer onDevice(Context ctx, long[] scalars) {
        long bytes = 8L * scalars.length;
        DeviceBuffer d = ctx.allocate(bytes);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(bytes, 8);
            MemorySegment.copy(MemorySegment.ofArray(scalars), 0, nat, 0, bytes);
            d.copyFromHost(nat, 0);
        } catch (RuntimeException | Error e) {
            d.close();
            throw e;
        }
        return d;
    }

    /**
     * The G1 MSM on 2^16 distinct points repeated up to 2^24, resident, at 2^20, 2^22, 2^24 (the time of
     * multiply: the scalars' copy from the heap included); with {@code profile}, each step's time and the
     * window sizes around the chosen one.
     */
    private void msmBenchmarks(Context ctx, PairingCurve curve, boolean profile) {
        byte[] image = KernelImage.load().orElseThrow();
        try (Module m = ctx.loadModule(image);
                CudaMsm msm = new CudaMsm(ctx, m, MsmGroup.g1(curve))) {
            try (ResidentPoints p = msm.upload(tiled(curve.g1(), 1 << 16, 1 << 24))) {
                for (int log : new int[] {20, 22, 24}) {
                    int n = 1 << log;
                    long[] scalars = randomVector(curve.fr(), n, log);
                    double ms = medianMs(5, () -> msm.multiply(p, scalars, 0, n));
                    try (DeviceBuffer d = onDevice(ctx, scalars)) {
                        double onDevice = medianMs(5, () -> msm.multiply(p, d, 0, n, null));
                        row("G1 MSM (points resident)", curve.snarkjsName(), "2^" + log, String.format(Locale.ROOT,
                                "%.2f ms, scalars on the device; %.2f ms from the heap (c = %d)", onDevice, ms,
                                CudaMsm.windowBits(n)));
                        if (profile) {
                            msm.profile(true);
                            msm.multiply(p, d, 0, n, null);
                            msm.multiply(p, scalars, 0, n);
                            printProfile("  G1 MSM " + curve.snarkjsName() + " 2^" + log
                                    + " (#1 scalars on the device, #2 from the heap)", msm.profiles());
                            msm.profile(false);
                            int best = CudaMsm.windowBits(n);
                            for (int c = best - 4; c <= Math.min(16, best + 2); c++) {
                                if (c != best && c >= 8) {
                                    int window = c;
                                    double t = medianMs(3, () -> msm.multiply(p, scalars, 0, n, window));
                                    row("G1 MSM, c = " + c + " (from the heap)", curve.snarkjsName(), "2^" + log,
                                            String.format(Locale.ROOT, "%.2f ms", t));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * The MSM of one group at 2^12 to 2^20 points (2^14 distinct points repeated), points resident, scalars
     * from the heap, with each window size c from 6 to 15 against the default ({@link CudaMsm#windowBits}):
     * one row a size, the times in ms by c, the fastest marked; every c's sum must equal the default's.
     */
    private void windowSweep(Context ctx, MsmGroup group) throws InterruptedException {
        WeierstrassCurve g = group.group();
        PointArithmetic pa = g.arithmetic();
        byte[] image = KernelImage.load().orElseThrow();
        try (Module m = ctx.loadModule(image);
                CudaMsm msm = new CudaMsm(ctx, m, group);
                ResidentPoints p = msm.upload(tiled(g, 1 << 14, 1 << 20))) {
            for (int log = 12; log <= 20; log += 2) {
                int n = 1 << log;
                long[] scalars = randomVector(group.pairingCurve().fr(), n, log);
                long[] expected = affine(pa, g, msm.multiply(p, scalars, 0, n));
                StringBuilder times = new StringBuilder();
                double best = Double.MAX_VALUE;
                int bestC = 0;
                boolean equal = true;
                for (int c = 6; c <= 15; c++) {
                    int window = c;
                    equal &= Arrays.equals(expected, affine(pa, g, msm.multiply(p, scalars, 0, n, window)));
                    double t = medianMs(5, () -> msm.multiply(p, scalars, 0, n, window));
                    times.append(String.format(Locale.ROOT, "%s%d: %.2f", times.length() == 0 ? "" : ", ", c, t));
                    if (t < best) {
                        best = t;
                        bestC = c;
                    }
                }
                String what = (group == MsmGroup.g2(group.pairingCurve()) ? "G2" : "G1") + " MSM by window size";
                String result = String.format(Locale.ROOT, "fastest c = %d (default %d); ms by c: %s", bestC,
                        CudaMsm.windowBits(n), times);
                verdict(what, group.pairingCurve().snarkjsName(), log, equal);
                row(what, group.pairingCurve().snarkjsName(), "2^" + log, result);
            }
        }
    }

    private static long[] affine(PointArithmetic pa, WeierstrassCurve g, long[] jacobian) {
        long[] xy = new long[g.affineWidth()];
        pa.toAffine(jacobian, 0, xy, 0);
        return xy;
    }

    /**
     * The G2 MSM at 2^16 and 2^20 (2^14 distinct points repeated), points resident, against the CPU's G2
     * MSM (all cores, 8-lane additions warmed up) on the same points and scalars: whether B in G2 belongs
     * on the GPU.
     */
    private void g2Benchmarks(Context ctx, PairingCurve curve) throws InterruptedException {
        MsmGroup group = MsmGroup.g2(curve);
        WeierstrassCurve g2 = curve.g2();
        long[] big = tiled(g2, 1 << 14, 1 << 20);
        Msm.warmUp(curve.g1()); // the Fp2 additions run on the base field's 8-lane kernel
        Msm cpu = Msm.on(g2);
        byte[] image = KernelImage.load().orElseThrow();
        try (Module m = ctx.loadModule(image);
                CudaMsm msm = new CudaMsm(ctx, m, group);
                ResidentPoints p = msm.upload(big)) {
            for (int log : new int[] {16, 20}) {
                int n = 1 << log;
                long[] scalars = randomVector(curve.fr(), n, log);
                double heap = medianMs(5, () -> msm.multiply(p, scalars, 0, n));
                double onCpu = medianMs(3, () -> cpu.multiply(MemorySegment.ofArray(big), 0, scalars, 0, n));
                try (DeviceBuffer d = onDevice(ctx, scalars)) {
                    double onDevice = medianMs(5, () -> msm.multiply(p, d, 0, n, null));
                    row("G2 MSM (points resident)", curve.snarkjsName(), "2^" + log, String.format(Locale.ROOT,
                            "%.2f ms, scalars on the device; %.2f ms from the heap; CPU (%d cores) %.1f ms",
                            onDevice, heap, Runtime.getRuntime().availableProcessors(), onCpu));
                }
            }
        }
    }

    private static void printProfile(String what, List<java.util.Map<String, Double>> profiles) {
        for (int i = 0; i < profiles.size(); i++) {
            StringBuilder line = new StringBuilder(what).append(profiles.size() > 1 ? " #" + (i + 1) : "").append(':');
            double total = 0;
            for (var e : profiles.get(i).entrySet()) {
                line.append(String.format(Locale.ROOT, " %s %.2f;", e.getKey(), e.getValue()));
                if (!e.getKey().startsWith("scalars: host")) {
                    total += e.getValue();
                }
            }
            System.out.println(line.append(String.format(Locale.ROOT, " on the stream %.2f ms", total)));
        }
    }

    /**
     * A proof of a 2^20-constraint circuit with the key resident, as the engine runs it: the witness into
     * pinned buffers (prepare), then its copy, a, b, c from the key's resident coefficients, H and the
     * four G1 MSMs on the GPU (start), then the G2 MSM, assembly and verification on the CPU (finish);
     * the whole proof, witness in and verified proof out; then again with a, b, c computed on the CPU in
     * prepare (and copied in start), and with B in G2 on the GPU in start.
     */
    private void proofBenchmark(Context ctx, GpuAccelerator gpu, PairingCurve curve, boolean profile)
            throws Exception {
        Setup s = setup(curve, 1 << 20);
        // the CPU's fastest NTT and MSM kernels compiled first, as the daemon does at start (finish's G2 MSM)
        Ntt.warmUp(curve.fr());
        Msm.warmUp(curve.g1());
        try (ProvingKey key = s.key();
                PinnedBuffer a = ctx.allocatePinned(Prover.NativeWorkspace.vectorBytes(key));
                PinnedBuffer b = ctx.allocatePinned(Prover.NativeWorkspace.vectorBytes(key));
                PinnedBuffer c = ctx.allocatePinned(Prover.NativeWorkspace.vectorBytes(key));
                PinnedBuffer w = ctx.allocatePinned(Prover.NativeWorkspace.witnessBytes(key))) {
            Prover.NativeWorkspace ws = new Prover.NativeWorkspace(a.segment(), b.segment(), c.segment(), w.segment());
            String size = "2^" + key.logDomainSize();
            double[][] t = timedProofs(gpu, key, s.witness(), ws, curve, profile);
            printFootprint(gpu);
            double cpu = medianMs(1, () -> Prover.create().start(key, s.witness()));
            row("proof 2^20: prepare (CPU: the witness)", curve.snarkjsName(), size, ms(t[0]));
            row("proof 2^20: start (GPU: a, b, c, H, G1 MSMs)", curve.snarkjsName(), size, ms(t[1])
                    + String.format(Locale.ROOT, " (CPU start %.0f ms)", cpu));
            row("proof 2^20: finish (CPU: G2, verify)", curve.snarkjsName(), size, ms(t[2]));
            row("proof 2^20: whole, witness in, verified proof out", curve.snarkjsName(), size, ms(t[3]));
            gpu.forget(key);
            t = timedProofs(abcOnCpu, key, s.witness(), ws, curve, false);
            row("proof 2^20, a, b, c on the CPU: prepare", curve.snarkjsName(), size, ms(t[0]));
            row("proof 2^20, a, b, c on the CPU: start", curve.snarkjsName(), size, ms(t[1]));
            row("proof 2^20, a, b, c on the CPU: whole", curve.snarkjsName(), size, ms(t[3]));
            abcOnCpu.forget(key);
            t = timedProofs(withG2, key, s.witness(), ws, curve, false);
            row("proof 2^20, B in G2 on the GPU: start", curve.snarkjsName(), size, ms(t[1]));
            row("proof 2^20, B in G2 on the GPU: finish", curve.snarkjsName(), size, ms(t[2]));
            row("proof 2^20, B in G2 on the GPU: whole", curve.snarkjsName(), size, ms(t[3]));
            withG2.forget(key);
        } finally {
            Files.deleteIfExists(s.dir().resolve("circuit.zkey"));
            Files.deleteIfExists(s.dir());
        }
    }

    /** The accelerator's resident keys and their device footprints, one line. */
    private static void printFootprint(GpuAccelerator gpu) {
        System.out.println("  resident on the device: " + gpu.residentKeys() + " key(s), "
                + CudaBackend.size(gpu.residentBytes()) + ": " + String.join(", ", gpu.footprints()));
    }

    /**
     * Milliseconds of prepare, start, finish and the three together of 5 proofs after one warm-up (the
     * key's upload).
     */
    private static double[][] timedProofs(GpuAccelerator gpu, ProvingKey key, Witness witness,
            Prover.NativeWorkspace ws, PairingCurve curve, boolean profile) {
        Prover prover = Prover.create();
        double[][] t = new double[4][5];
        for (int i = -1; i < 5; i++) {
            CudaMsm msm = gpu.msm(curve);
            msm.profile(profile && i == 4);
            long t0 = System.nanoTime();
            Prover.Prepared p = prover.prepare(key, witness, ws, -1, gpu.computesAbc(key));
            long t1 = System.nanoTime();
            Prover.Started st = AcceleratedProofs.start(gpu, p);
            long t2 = System.nanoTime();
            prover.finish(st);
            long t3 = System.nanoTime();
            if (i >= 0) {
                t[0][i] = (t1 - t0) / 1e6;
                t[1][i] = (t2 - t1) / 1e6;
                t[2][i] = (t3 - t2) / 1e6;
                t[3][i] = (t3 - t0) / 1e6;
            }
            if (profile && i == 4) {
                printProfile("  proof " + curve.snarkjsName() + " G1 MSMs A, B1, C, H", msm.profiles());
                msm.profile(false);
            }
        }
        return t;
    }

    private static String ms(double[] t) {
        double[] sorted = t.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.1f ms (median of %d)", sorted[sorted.length / 2], sorted.length);
    }
}
