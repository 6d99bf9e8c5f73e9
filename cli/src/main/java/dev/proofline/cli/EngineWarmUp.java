package dev.proofline.cli;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.ZkeyProver;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.circuits.Builtins;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.WtnsFile;
import dev.proofline.r1cs.wasm.CircomWasm;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * What the local engine does first, in the background, so that its first requests are served as fast
 * as later ones: a JVM runs new code in its interpreter, then compiled quickly, and only after a while
 * compiled well (a one-off proof of 2^14 constraints spends most of its seconds there). For each curve,
 * a small built-in circuit (Merkle paths with SHA-256 leaves: bits and full field elements both, so
 * both kinds of MSM terms) gets a development key in a temporary directory and is proved, its key
 * exported and its proof verified a dozen times, through the very commands a request runs, as the
 * engine's {@link Housekeeping}: at the lowest CPU priority, each step waiting while a request runs in
 * the engine or a one-off command runs beside it, so that no request waits for it. Before that, the
 * 8-lane kernels of the NTT and of the G1 and G2 MSMs are compiled where the JVM has them: as soon as
 * no request and no one-off command runs, without waiting for other programs, once a key of
 * 2^{@link #KERNELS_FROM_LOG} or more is proved with (at the lowest priority still: a few seconds of one
 * core, and every request runs the scalar kernels until then; they replace them only once compiled, and
 * the proofs then run the code that requests will run); for smaller keys, at a step's turn. The warm-up key's
 * precomputed tables are built before its first proof, so that the MSMs through tables are compiled too.
 */
final class EngineWarmUp {

    /** Constraints of the warm-up circuit: small enough to take a second or two on each curve. */
    static final int CONSTRAINTS = 1 << 12;
    /** Proofs of it on each curve. */
    static final int PROOFS = 12;

    private final Housekeeping housekeeping;
    private final Consumer<String> log;
    private final List<PairingCurve> curves;
    private final boolean kernels;
    private final int proofs;
    private final Runnable last;
    private volatile String state = "not started";

    /**
     * A warm-up of {@code proofs} proofs on each of those curves ({@link #PROOFS} in the engine), run as
     * {@code housekeeping}; with {@code kernels}, of the 8-lane kernels too; {@code last} its last step
     * (the engine's reopened keys proved once: {@link KeysAcrossRestarts#proveHeld}), run even where the
     * rest failed.
     */
    EngineWarmUp(Housekeeping housekeeping, Consumer<String> log, List<PairingCurve> curves, boolean kernels,
            int proofs, Runnable last) {
        this.housekeeping = housekeeping;
        this.log = log;
        this.curves = List.copyOf(curves);
        this.kernels = kernels;
        this.proofs = proofs;
        this.last = last;
    }

    /** The curves named (snarkjs's names, or "none"). */
    static List<PairingCurve> curves(List<String> names) {
        List<PairingCurve> curves = new ArrayList<>();
        for (String name : names) {
            if (name.equals("none")) {
                continue;
            }
            curves.add(PairingCurve.bySnarkjsName(name).orElseThrow(() -> new IllegalArgumentException(
                    "--warm-up: unknown curve '" + name + "' (bn128, bls12381 or none)")));
        }
        return curves;
    }

    /**
     * Domain size (log) from which a request's key wants the 8-lane kernels compiled at once
     * ({@link #keyUsed}): the kernels pay from there (docs/decisions/0023-engine-first-requests.md).
     */
    static final int KERNELS_FROM_LOG = 14;

    /**
     * {@link #KERNELS_FROM_LOG}, or {@code -Dproofline.engine.kernelsFromLog} (for tests, which prove
     * with small keys only).
     */
    static int kernelsFromLog() {
        return Integer.getInteger("proofline.engine.kernelsFromLog", KERNELS_FROM_LOG);
    }

    /** Which kernels an engine runs, for its status; {@code withoutKernels}: started so ({@code --no-kernels}). */
    static String kernels(boolean withoutKernels) {
        if (withoutKernels) {
            return "scalar only: started by a command, from the one-off commands' start-up cache; a key of 2^"
                    + kernelsFromLog() + " or more starts an engine with the 8-lane kernels beside it, which takes over once warm";
        }
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                ? "8-lane where they pay (keys of 2^" + kernelsFromLog() + " or more)"
                : "scalar only (this Java runtime has no jdk.incubator.vector)";
    }

    private final AtomicBoolean kernelsWanted = new AtomicBoolean();

    /**
     * A request proves with a key of a domain of {@code logDomainSize}: from {@link #KERNELS_FROM_LOG} on,
     * the kernels' warm-up no longer waits for other programs.
     */
    void keyUsed(int logDomainSize) {
        if (logDomainSize >= kernelsFromLog()) {
            kernelsWanted.set(true);
        }
    }

    /** {@code keys}, the domain size (log) of each key it hands out told to {@code keyUsed}. */
    static Loader toldOfKeys(Loader keys, IntConsumer keyUsed) {
        return new Loader() {
            @Override
            public KeyLease provingKey(Path zkey) {
                KeyLease lease = keys.provingKey(zkey);
                keyUsed.accept(lease.key().logDomainSize());
                return lease;
            }

            @Override
            public CircomWasm witnessGenerator(Path wasm, Path cacheDir) {
                return keys.witnessGenerator(wasm, cacheDir);
            }
        };
    }

    /** For {@code engine status}: running, done (and in how long) or failed (and why). */
    String state() {
        return state;
    }

    /** Starts the warm-up in the background. */
    void start() {
        state = "running";
        housekeeping.submit(this::run);
    }

    private void run() {
        long t0 = System.nanoTime();
        Exception failure = null;
        Path dir = null;
        // the warm-up key's tables are built before its first proof (its key is new at each start: not cached)
        ResidentFiles.TableBuilding tables = new ResidentFiles.TableBuilding(EngineMemory.tableBytesPerKey(), null,
                Runnable::run, housekeeping::awaitTurn);
        try (ResidentFiles files = new ResidentFiles(EngineMemory.keyBudgetBytes(), 1, tables)) {
            dir = Files.createTempDirectory("proofline-warm-up");
            for (PairingCurve curve : kernels ? curves : List.<PairingCurve>of()) {
                // a few seconds of one core and of the optimising compiler. Below 2^KERNELS_FROM_LOG
                // constraints a proof is no faster with the kernels, and compiling them beside the first
                // requests delays the compilation of the code those run (BENCHMARKS.md, "As a user meets
                // it"): they wait for a turn that no other program needs. Once a request proves with a
                // larger key (kernelsWanted), the first curve's go on without waiting for other programs,
                // which a loop of requests alternating with another program would never leave a turn for;
                // still after the one-off command that started the engine, or one that runs while it starts
                state = "running: 8-lane kernels on " + curve.snarkjsName();
                if (curve == curves.getFirst()) {
                    housekeeping.awaitTurnUnless(kernelsWanted::get);
                } else {
                    housekeeping.awaitTurn();
                }
                ZkeyProver.warmUp(curve);
            }
            for (PairingCurve curve : proofs > 0 ? curves : List.<PairingCurve>of()) {
                state = "running: proofs on " + curve.snarkjsName();
                prove(curve, dir.resolve(curve.snarkjsName()), files);
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            delete(dir);
        }
        try {
            state = "running: proofs of the keys";
            last.run();   // after a failure too: the keys held for it let go
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        state = failure == null ? String.format(Locale.ROOT, "done in %.1f s", (System.nanoTime() - t0) / 1e9)
                : "failed: " + failure;
        log.accept("warm-up " + state);
    }

    /** A development key and a witness of the circuit on that curve, then proofs through the commands. */
    private void prove(PairingCurve curve, Path dir, Loader files) throws Exception {
        housekeeping.awaitTurn();
        writeCircuit(curve, dir);
        command(files, dir, "zkey", "export-vk", "c.zkey", "vk.json");
        for (int i = 0; i < proofs; i++) {
            command(files, dir, "prove", "c.zkey", "c.wtns", "proof.json", "public.json");
            command(files, dir, "verify", "vk.json", "public.json", "proof.json");
        }
    }

    /**
     * Writes {@code dir}/c.zkey (a development key) and {@code dir}/c.wtns for the warm-up circuit on
     * {@code curve}: Merkle paths with SHA-256 leaves, {@link #CONSTRAINTS} constraints.
     */
    static void writeCircuit(PairingCurve curve, Path dir) throws IOException {
        Files.createDirectories(dir);
        Circuit circuit = Builtins.circuit("builtin:merkle-post", curve, CONSTRAINTS, 8, true, 1);
        R1cs r1cs = RecordingSystem.record(curve, circuit);
        DevSetup.run(r1cs, dir.resolve("c.zkey"));
        Files.write(dir.resolve("c.wtns"), WtnsFile.write(WitnessSystem.witness(curve, circuit)));
    }

    /** Runs a command once no request runs, its output discarded. */
    private void command(Loader files, Path dir, String... args) {
        housekeeping.awaitTurn();
        PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
        int code = Main.run(new Invocation(false, files, new ClientPaths(dir)), none, none, args);
        if (code != 0) {
            throw new IllegalStateException("'" + String.join(" ", args) + "' exited " + code);
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            Dirs.deleteTree(dir);
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
