package dev.proofline.daemon;

import dev.proofline.daemon.cluster.ClusterNodeProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A daemon in a process of its own ({@link ClusterNodeProcess} on the CPU backend), so that its resident
 * memory is measured without the clients'. Its log lines are kept.
 */
final class DaemonProcess implements AutoCloseable {

    private final Process process;
    private final String grpcAddress;
    private final String httpAddress;
    final List<String> log = new CopyOnWriteArrayList<>();

    DaemonProcess(Path config, String... jvmOptions) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterNodeProcess.class.getName(),
                config.toString(), "cpu"));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream()));
        String line;
        String http = null;
        while ((line = out.readLine()) != null && !line.startsWith("ready ")) {
            if (line.startsWith("http ")) {
                http = line.substring("http ".length());
            }
            log.add(line);
        }
        if (line == null || http == null) {
            throw new IllegalStateException("the daemon process did not start: " + log);
        }
        grpcAddress = line.substring("ready ".length());
        httpAddress = http;
        Thread.ofPlatform().daemon().start(() -> out.lines().forEach(log::add));
    }

    String grpcAddress() {
        return grpcAddress;
    }

    String httpAddress() {
        return httpAddress;
    }

    /** Resets the process's peak RSS to its current RSS; returns that. */
    long resetPeak() throws IOException {
        Files.writeString(Path.of("/proc/" + process.pid() + "/clear_refs"), "5");
        return status("VmRSS:");
    }

    /** The process's peak RSS since it started or since {@link #resetPeak}. */
    long peakRss() throws IOException {
        return status("VmHWM:");
    }

    long rss() throws IOException {
        return status("VmRSS:");
    }

    private long status(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
            }
        }
        throw new IllegalStateException(field + " not in the status of process " + process.pid());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
