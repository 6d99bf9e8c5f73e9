package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the release ships is the CLI's jar and its run-time dependencies (scripts/dist.sh copies
 * cli/target/lib): no module's test jar may be among them, so each dependency of type test-jar is
 * of scope test, and the PostgreSQL server that {@code bench cluster} starts is main code.
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
    void benchClustersPostgresServerIsMainCode() throws Exception {
        // loaded from the daemon's main jar (target/classes in the reactor), not from a test jar
        String where = dev.proofline.daemon.store.postgres.LocalPostgres.class.getProtectionDomain().getCodeSource().getLocation()
                .toString();
        assertTrue(!where.contains("test-classes") && !where.endsWith("-tests.jar"), where);
    }
}
