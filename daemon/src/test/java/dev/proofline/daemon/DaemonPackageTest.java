package dev.proofline.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The daemon's packages depend one way (docs/architecture.md): configuration at the bottom, then the
 * job store (its contract, then SQLite and PostgreSQL beside each other), the jobs, the cluster node,
 * the transports (gRPC, then HTTP, whose JSON API is a face on the gRPC service) and {@code Daemon},
 * which wires them. A package names only the packages it is allowed here: in an import or a
 * qualified name. Below the transports the daemon speaks plain Java: the wire API (its protobuf
 * messages, gRPC) is the transports' own. Read from the module's source tree.
 */
class DaemonPackageTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/proofline/daemon");
    private static final String ROOT = "dev.proofline.daemon";

    /** Each package (relative to {@value #ROOT}) and the daemon packages it may name; the root may name all. */
    static final Map<String, Set<String>> MAY_USE = Map.of(
            "config", Set.of(),
            "store", Set.of(),
            "store.sqlite", Set.of("store", "config"),
            "store.postgres", Set.of("store", "config"),
            "jobs", Set.of("store", "config"),
            "cluster", Set.of("jobs", "store", "config"),
            "transport", Set.of("config"),
            "transport.grpc", Set.of("transport", "jobs", "config"),
            "transport.http", Set.of("transport", "transport.grpc", "jobs", "config"));

    /** The packages that do not name the wire API (its messages, protobuf, gRPC): the transports convert. */
    static final Set<String> PLAIN = Set.of("config", "store", "store.sqlite", "store.postgres", "jobs", "cluster");
    /** A name in the wire API: the daemon's messages, protobuf's runtime, gRPC. */
    private static final Pattern WIRE = Pattern.compile("\\b(?:dev\\.proofline\\.api|com\\.google\\.protobuf|io\\.grpc)\\.");

    /** A daemon class named in code: its package (relative), then the class. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.proofline\\.daemon((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");

    @Test
    void eachPackageNamesOnlyThePackagesBelowIt() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(sources.size() > 40, "the daemon's sources are not where this test reads them: " + sources);
        assertEquals(List.of(), wrongReferences(sources), "a daemon package names one it may not use");
    }

    @Test
    void thePackagesBelowTheTransportsDoNotNameTheWireApi() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertEquals(List.of(), wireReferences(sources), "a package below the transports names the wire API");
    }

    /** Every name of the wire API in a {@link #PLAIN} package of {@code sources}, as "file:line: package: line". */
    static List<String> wireReferences(List<Path> sources) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path source : sources) {
            String text = Files.readString(source);
            Matcher pm = PACKAGE.matcher(text);
            assertTrue(pm.find(), source + " has no package declaration");
            String pkg = relative(pm.group(1));
            if (!PLAIN.contains(pkg)) {
                continue;
            }
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                if (WIRE.matcher(lines.get(i)).find()) {
                    found.add(source.getFileName() + ":" + (i + 1) + ": " + pkg + ": " + lines.get(i).strip());
                }
            }
        }
        return found;
    }

    /** Every reference against {@link #MAY_USE} in {@code sources}, as "file:line: package -> package". */
    static List<String> wrongReferences(List<Path> sources) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path source : sources) {
            String text = Files.readString(source);
            Matcher pm = PACKAGE.matcher(text);
            assertTrue(pm.find(), source + " has no package declaration");
            String pkg = relative(pm.group(1));
            if (pkg.isEmpty()) {
                continue;
            }
            Set<String> allowed = MAY_USE.get(pkg);
            if (allowed == null) {
                found.add(source.getFileName() + ": package " + pkg + " has no place in the daemon's layers");
                continue;
            }
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = REFERENCE.matcher(lines.get(i));
                while (m.find()) {
                    String used = relative(ROOT + m.group(1));
                    if (!used.equals(pkg) && !allowed.contains(used)) {
                        found.add(source.getFileName() + ":" + (i + 1) + ": " + pkg + " -> "
                                + (used.isEmpty() ? ROOT : used) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        return found;
    }

    private static String relative(String pkg) {
        return pkg.equals(ROOT) ? "" : pkg.substring(ROOT.length() + 1);
    }

    @Test
    void aReferenceAgainstTheLayersIsFound(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path store = Files.createDirectories(dir.resolve("store"));
        Path wrong = Files.writeString(store.resolve("Wrong.java"), """
                package dev.proofline.daemon.store;

                import dev.proofline.daemon.config.DaemonConfig;
                import dev.proofline.daemon.transport.http.JsonApi;

                final class Wrong {
                    dev.proofline.daemon.cluster.ClusterNode node;
                }
                """);
        Path unplaced = Files.writeString(dir.resolve("Unplaced.java"), "package dev.proofline.daemon.extra;\n");
        List<String> found = wrongReferences(List.of(wrong, unplaced));
        assertEquals(4, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("Wrong.java:3: store -> config"), found.get(0));
        assertTrue(found.get(1).startsWith("Wrong.java:4: store -> transport.http"), found.get(1));
        assertTrue(found.get(2).startsWith("Wrong.java:7: store -> cluster"), found.get(2));
        assertTrue(found.get(3).contains("package extra has no place"), found.get(3));
    }

    @Test
    void aNameOfTheWireApiBelowTheTransportsIsFound(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path wrong = Files.writeString(dir.resolve("Wrong.java"), """
                package dev.proofline.daemon.cluster;

                import dev.proofline.api.v1.Partition;

                final class Wrong {
                    io.grpc.Status status;
                    com.google.protobuf.ByteString bytes;
                }
                """);
        Path transport = Files.writeString(dir.resolve("Right.java"), """
                package dev.proofline.daemon.transport.grpc;

                import dev.proofline.api.v1.Partition;
                """);
        List<String> found = wireReferences(List.of(wrong, transport));
        assertEquals(3, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("Wrong.java:3: cluster"), found.get(0));
        assertTrue(found.get(1).startsWith("Wrong.java:6: cluster"), found.get(1));
        assertTrue(found.get(2).startsWith("Wrong.java:7: cluster"), found.get(2));
    }
}
