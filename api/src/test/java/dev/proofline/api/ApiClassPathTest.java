package dev.proofline.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client of the daemon gets the API module without the server: its whole class path (what Maven
 * resolves for it, transitive dependencies included) holds no module of the engine and none of the
 * daemon's server libraries.
 */
class ApiClassPathTest {

    /** Jar names (their artifactId's start) that only the daemon needs. */
    private static final List<String> SERVER_JARS = List.of("postgresql-", "HikariCP-", "flyway-", "sqlite-jdbc-",
            "micrometer-", "netty-codec-http-", "netty-handler-", "netty-transport-", "jackson-dataformat-toml-",
            "slf4j-", "proofline-");

    @Test
    void theClassPathHoldsTheClientAndNoServerLibrary() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> jars = Arrays.stream(classPath.split(File.pathSeparator)).filter(p -> p.endsWith(".jar"))
                .map(p -> p.substring(p.lastIndexOf(File.separatorChar) + 1)).toList();
        assertTrue(jars.stream().anyMatch(j -> j.startsWith("grpc-netty-shaded-")), "the class path read: " + jars);
        assertTrue(jars.stream().anyMatch(j -> j.startsWith("protobuf-java-")), "the class path read: " + jars);
        assertEquals(List.of(), jars.stream().filter(j -> SERVER_JARS.stream().anyMatch(j::startsWith)).toList(),
                "server libraries on a client's class path");
    }
}
