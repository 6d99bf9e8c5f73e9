package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A test program of the kernels' arithmetic (src/test/cuda/host_test.cpp and device_test.cu, built by
 * the module's build into {@code target/cuda-host-test}): a batch of operations, each with the result
 * the Java code gives, is run through the program and every result compared word for word.
 */
final class HostProgram {

    /**
     * The programs the build makes: with 128-bit products; with the device's separate high product;
     * by nvcc's host pass (only when nvcc is there); the device test program, running the operations
     * on a GPU (only when nvcc is there and a GPU is visible).
     */
    static final List<String> NAMES = List.of("host_test", "host_test_portable_mulhi", "host_test_nvcc", "device_test");

    /** The device test program's exit status when it finds no usable CUDA device. */
    static final int NO_DEVICE = 77;

    static Path directory() {
        return Path.of(System.getProperty("proofline.cuda.hostTestDir", "target/cuda-host-test"));
    }

    private final Path program;
    private final List<String> lines = new ArrayList<>();
    private final List<long[]> expected = new ArrayList<>();
    private final List<String> descriptions = new ArrayList<>();

    HostProgram(Path program) {
        this.program = program;
    }

    /** Queues one operation: {@code group op} with the operands' words, and the expected words. */
    void add(String description, String group, String op, long[] expectedWords, long[]... operands) {
        StringBuilder sb = new StringBuilder(group).append(' ').append(op);
        for (long[] o : operands) {
            for (long w : o) {
                sb.append(' ').append(Long.toHexString(w));
            }
        }
        lines.add(sb.toString());
        expected.add(expectedWords.clone());
        descriptions.add(description);
    }

    int size() {
        return lines.size();
    }

    /** Runs the queued operations and compares every result with its expected words. */
    void runAndCompare() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("cuda-host-test");
        try {
            Path in = dir.resolve("in.txt");
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            Files.write(in, lines, StandardCharsets.US_ASCII);
            Process p = new ProcessBuilder(program.toString())
                    .redirectInput(in.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            // a guard against a hung program, not a measurement
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail(program + " did not finish");
            }
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            Assumptions.assumeFalse(p.exitValue() == NO_DEVICE, program.getFileName() + ": " + stderr.strip());
            assertEquals(0, p.exitValue(), program + " failed: " + stderr);
            List<String> results = Files.readAllLines(out, StandardCharsets.US_ASCII);
            assertEquals(lines.size(), results.size(), "one result a line from " + program);
            for (int n = 0; n < lines.size(); n++) {
                final int i = n;
                String[] tok = results.get(i).trim().split(" ");
                long[] actual = new long[tok.length];
                for (int k = 0; k < tok.length; k++) {
                    actual[k] = Long.parseUnsignedLong(tok[k], 16);
                }
                assertArrayEquals(expected.get(i), actual, () -> descriptions.get(i) + " on " + program.getFileName()
                        + "\n  input:    " + lines.get(i) + "\n  expected: " + hex(expected.get(i))
                        + "\n  actual:   " + hex(actual));
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static String hex(long[] w) {
        StringBuilder sb = new StringBuilder();
        for (long x : w) {
            sb.append(sb.isEmpty() ? "" : " ").append(String.format("%016x", x));
        }
        return sb.toString();
    }
}
