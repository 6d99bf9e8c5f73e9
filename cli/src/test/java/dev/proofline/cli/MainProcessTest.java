package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.groth16.testing.CircomFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Main.main} as a process ends it: after a one-off command by a halt, with its output flushed and
 * its exit code; with a flight recording, by a normal exit that writes the recording; and without
 * picocli's lookup of Groovy's classes on the way.
 */
class MainProcessTest {

    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) {
    }

    private Run main(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.proofline.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(tmp.resolve("out.txt").toFile())
                .redirectError(tmp.resolve("err.txt").toFile());
        pb.environment().put("PROOFLINE_ENGINE", "off");
        pb.environment().put("PROOFLINE_HOME", tmp.resolve("home").toString());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the process ended");
        return new Run(p.exitValue(), Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(tmp.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    /** {@code proofline verify} of the fixture's proof against {@code publicJson}, in a JVM with {@code jvmOptions}. */
    private Run verify(List<String> jvmOptions, CircomFixtures.Fixture fx, Path publicJson)
            throws IOException, InterruptedException {
        return main(jvmOptions, "verify", fx.vk().toString(), publicJson.toString(), fx.proof().toString());
    }

    @Test
    void verifyEndsWithItsExitCodeAndFlushedOutput() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path exceptions = tmp.resolve("exceptions.log");
        Run ok = verify(List.of("-Xlog:exceptions=info:file=" + exceptions), fx, fx.publicJson());
        assertEquals(0, ok.code(), ok.err());
        assertEquals("OK", ok.out().strip());
        // picocli looks Groovy's Closure up unless told not to (a search of every jar)
        String thrown = Files.readString(exceptions);
        assertTrue(thrown.contains("Exception <a"), "the log records exceptions");
        assertFalse(thrown.contains("groovy.lang.Closure"), "no lookup of groovy.lang.Closure");

        Path pub = tmp.resolve("public.json");
        Files.writeString(pub, Files.readString(fx.publicJson()).replaceFirst("\"(\\d+)\"", "\"1$1\""));
        Run invalid = verify(List.of(), fx, pub);
        assertEquals(1, invalid.code(), invalid.err());
        assertEquals("Invalid proof", invalid.out().strip());

        Run missing = verify(List.of(), fx, tmp.resolve("none.json"));
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("none.json"), missing.err());
    }

    @Test
    void aFlightRecordingIsWrittenAtTheEnd() throws Exception {
        CircomFixtures.Fixture fx = CircomFixtures.build("bn128", "multiplier");
        Path jfr = tmp.resolve("run.jfr");
        Run ok = verify(List.of("-XX:StartFlightRecording=filename=" + jfr), fx, fx.publicJson());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(Files.size(jfr) > 0, "the recording was written");
    }
}
