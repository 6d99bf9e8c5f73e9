package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code proofline daemon} in a process of its own (this JVM's class path, so the lab too where it is on
 * it), serving the keys of a directory with a durable store, on free loopback ports; its output is
 * gathered line by line. Closing it kills the process if it still runs.
 */
public final class CliDaemon implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("gRPC on (\\S+),");

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private final String target;

    private CliDaemon(Path keys, Path store) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), "dev.proofline.cli.Main", "daemon", "--keys", keys.toString(),
                "--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--store", store.toString())
                .redirectErrorStream(true).start();
        reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output closed: " + e.getMessage() + ")");
            }
        });
        target = awaitTarget();
    }

    /** Starts the daemon and waits (up to a minute) until it says where its gRPC port listens. */
    public static CliDaemon start(Path keys, Path store) throws IOException, InterruptedException {
        return new CliDaemon(keys, store);
    }

    private String awaitTarget() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && process.isAlive()) {
            for (String line : lines) {
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    return m.group(1);
                }
            }
            Thread.sleep(20);
        }
        close();
        return fail("the daemon says where it listens: " + lines);
    }

    /** Its gRPC address, for {@code --target}. */
    public String target() {
        return target;
    }

    /** What it has printed so far, a line each. */
    public List<String> lines() {
        return lines;
    }

    /**
     * Sends SIGTERM ({@code Process.destroy} would also close this end of its output) and waits up to a
     * minute for it to stop and its output to be read; its exit code, or -1 if it still runs.
     */
    public int terminate() throws InterruptedException {
        process.toHandle().destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            return -1;
        }
        reader.join(10_000);
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
