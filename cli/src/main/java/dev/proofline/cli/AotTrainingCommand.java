package dev.proofline.cli;

import dev.proofline.algebra.PairingCurve;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code proofline aot-training}: the workload the launcher records the JVM's ahead-of-time cache from
 * ({@code -XX:AOTCacheOutput}, JDK 25): the classes a one-off command loads and links, and the profiles
 * of the methods its proof runs hot. With that cache a later one-off process loads those classes
 * ready-linked and compiles the kernels early, from the recorded profiles, instead of interpreting them
 * first (docs/engine-cli.md has the figures). On each curve it writes the engine warm-up's circuit in a
 * temporary directory and runs {@code zkey export-vk}, then {@code prove} and {@code verify} a few
 * times, as one-off commands do; then, on BN254, the same through a local engine of a temporary state
 * directory, for the engine that a one-off command starts for a small key from this cache
 * ({@code engine run --no-kernels}). Hidden: the launcher and {@code scripts/dist.sh} run it.
 */
@Command(name = "aot-training", hidden = true,
        description = "Run the workload the launcher records the JVM's start-up cache from.")
final class AotTrainingCommand implements Callable<Integer> {

    @Option(names = "--rounds", description = "proofs on each curve (default: ${DEFAULT-VALUE})")
    int rounds = 4;

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("proofline-aot-training");
        try {
            for (PairingCurve curve : List.of(PairingCurve.BN254, PairingCurve.BLS12_381)) {
                Path c = dir.resolve(curve.snarkjsName());
                EngineWarmUp.writeCircuit(curve, c);
                run(c, "zkey", "export-vk", "c.zkey", "vk.json");
                for (int i = 0; i < rounds; i++) {
                    run(c, "prove", "c.zkey", "c.wtns", "proof.json", "public.json");
                    run(c, "verify", "vk.json", "public.json", "proof.json");
                }
            }
            throughAnEngine(dir.resolve(PairingCurve.BN254.snarkjsName()), new EngineHome(dir.resolve("engine-home")));
        } finally {
            Dirs.deleteTree(dir);
        }
        return 0;
    }

    /** The requests of {@link #call} sent to an engine started in this process on {@code home}, then stopped. */
    private void throughAnEngine(Path dir, EngineHome home) throws Exception {
        LocalEngine engine = LocalEngine.start(home, Duration.ZERO, new PrintStream(OutputStream.nullOutputStream()), 0, false,
                null, 0);
        try {
            for (int i = 0; i < rounds; i++) {
                for (List<String> args : List.of(List.of("prove", "c.zkey", "c.wtns", "proof.json", "public.json"),
                        List.of("verify", "vk.json", "public.json", "proof.json"))) {
                    OptionalInt code = EngineClient.send(home, dir, args, OutputStream.nullOutputStream(),
                            OutputStream.nullOutputStream());
                    if (code.isEmpty() || code.getAsInt() != 0) {
                        throw new IllegalStateException("'" + String.join(" ", args) + "' through the engine: " + code);
                    }
                }
            }
        } finally {
            engine.stop("training done");
        }
    }

    /** Runs one command as a one-off process does, in {@code dir}, its output discarded. */
    private static void run(Path dir, String... args) {
        PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
        int code = Main.run(new Invocation(false, Loader.ONE_OFF, new ClientPaths(dir)), none, none, args);
        if (code != 0) {
            throw new IllegalStateException("'" + String.join(" ", args) + "' exited " + code);
        }
    }
}
