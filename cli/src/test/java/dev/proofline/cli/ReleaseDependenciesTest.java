package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the release ships is the CLI's jar and its run-time dependencies (scripts/dist.sh copies
 * cli/target/lib): no module's test jar may be among them, so each dependency of type test-jar is
 * of scope test; nor the lab, whose {@code bench} the release answers with a line that says it is not
 * installed, nor the private PostgreSQL server of the lab's {@code bench cluster}.
 */
class ReleaseDependenciesTest {

    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

    @Test
    void noTestJarIsADependencyOfTheShippedCommand() throws Exception {
        String pom = Files.readString(Node.repositoryRoot().resolve("cli/pom.xml"));
        List<String> shipped = new ArrayList<>();
        Matcher m = DEPENDENCY.matcher(pom);
        while (m.find()) {
            String d = m.group(1);
            if (d.contains("<type>test-jar</type>") && !d.contains("<scope>test</scope>")) {
                shipped.add(d.replaceAll("\\s+", " ").strip());
            }
        }
        assertEquals(List.of(), shipped);
    }

    @Test
    void theLabIsNotOnTheShippedCommandsClassPath() {
        // this class path holds the command's run-time dependencies, which the release ships (app/lib)
        assertTrue(ServiceLoader.load(Lab.class).findFirst().isEmpty(), "a lab found by ServiceLoader");
        assertThrows(ClassNotFoundException.class, () -> Class.forName("dev.proofline.lab.LabCommands"));
        CliRun bench = CliRun.of("bench", "msm-g1", "--log", "9");
        assertEquals(Main.EXIT_INPUT, bench.code());
        assertTrue(bench.err().contains("the lab (benchmarks and simulations) is not installed here"), bench.err());
        assertEquals("", bench.out());
        CliRun help = CliRun.of("bench", "--help");
        assertEquals(Main.EXIT_INPUT, help.code());
        assertTrue(help.err().contains("is not installed here"), help.err());
    }

    @Test
    void theReleaseCopiesTheCommandsJarsOnly() throws Exception {
        // every file dist.sh puts in app/ comes from the command's build (cli/target), none from the lab's
        List<String> copies = Files.readString(Node.repositoryRoot().resolve("scripts/dist.sh")).lines()
                .filter(l -> l.matches("\\s*cp .*\"\\$stage/app.*")).toList();
        assertEquals(2, copies.size(), copies.toString());
        for (String cp : copies) {
            assertTrue(cp.matches("\\s*cp (-r )?cli/target/\\S+ \"\\$stage/app.*"), cp);
        }
    }

    @Test
    void benchClustersPostgresServerIsNotShipped() {
        // in the daemon's test jar, which the lab uses; the command's class path holds no test jar
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("dev.proofline.daemon.store.postgres.LocalPostgres"));
    }
}
