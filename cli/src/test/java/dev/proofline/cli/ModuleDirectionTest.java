package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The modules depend one way (docs/architecture.md): each on layers below it only, in its POM and in
 * its code. Read from the tree itself (this module is the top one, so the whole tree is beside it).
 */
class ModuleDirectionTest {

    /** Each module's layer: a module may use only modules of a lower layer. Bench and the lab stand beside them. */
    private static final Map<String, Integer> LAYERS = Map.of("algebra", 0, "r1cs", 1, "groth16", 2, "engine", 3,
            "cuda", 4, "api", 5, "daemon", 6, "cli", 7);
    /**
     * Modules that use no other module, whatever their layer: the daemon's API and client, which an
     * application that only talks to a daemon takes without the engine under it.
     */
    private static final List<String> SELF_CONTAINED = List.of("api");
    /**
     * Server libraries, by artifactId, that the API module's POM must not name: a client of the daemon
     * loads none of them (its whole class path is checked by the api module's ApiClassPathTest).
     */
    private static final List<String> SERVER_LIBRARIES = List.of("postgresql", "HikariCP", "flyway-core",
            "flyway-database-postgresql", "sqlite-jdbc", "micrometer-core", "micrometer-registry-prometheus",
            "netty-codec-http", "jackson-dataformat-toml", "slf4j-jdk14");
    /**
     * Plugins: modules nothing names in its code, found through {@code ServiceLoader} (they register a
     * provider in {@code META-INF/services}); another module may only have them on its class path
     * (Maven scope runtime or test).
     */
    private static final List<String> PLUGINS = List.of("cuda");
    /**
     * Modules outside the layers and what they may use: nothing uses them. The lab ({@code proofline
     * bench}) stands on the command, and the command finds it at run time ({@code Lab}), never by name.
     */
    private static final Map<String, List<String>> BESIDE = Map.of("bench", List.of("algebra"),
            "lab", List.of("algebra", "r1cs", "groth16", "engine", "api", "daemon", "cli"));

    private static final Path ROOT = Path.of("..");
    private static final Pattern MODULE = Pattern.compile("<module>([a-z0-9-]+)</module>");
    private static final Pattern DEPENDENCY = Pattern.compile("<artifactId>proofline-([a-z0-9]+)</artifactId>");
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.proofline\\.([a-z0-9]+)\\.");
    private static final Pattern DEPENDENCY_BLOCK = Pattern.compile("(?s)<dependency>(.*?)</dependency>");
    private static final Pattern SCOPE = Pattern.compile("<scope>([a-z]+)</scope>");

    private static List<String> modules() throws IOException {
        List<String> ms = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) {
            ms.add(m.group(1));
        }
        return ms;
    }

    private static boolean allowed(String from, String to) {
        if (from.equals(to)) {
            return true;
        }
        if (SELF_CONTAINED.contains(from)) {
            return false;
        }
        if (BESIDE.containsKey(from)) {
            return BESIDE.get(from).contains(to);
        }
        return LAYERS.containsKey(to) && LAYERS.get(to) < LAYERS.get(from);
    }

    @Test
    void everyModuleHasAPlace() throws IOException {
        List<String> unplaced = new ArrayList<>();
        for (String m : modules()) {
            boolean code = Files.isDirectory(ROOT.resolve(m).resolve("src/main/java"));
            if (code && !LAYERS.containsKey(m) && !BESIDE.containsKey(m)) {
                unplaced.add(m);
            }
        }
        assertEquals(List.of(), unplaced, "modules with code but no layer here (add them, and to docs/architecture.md)");
    }

    @Test
    void pomsDependOnLowerLayersOnly() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String m : modules()) {
            Path pom = ROOT.resolve(m).resolve("pom.xml");
            if (!LAYERS.containsKey(m) && !BESIDE.containsKey(m)) {
                continue;
            }
            // the dependencies, not what a dependencyManagement section lists or the parent
            String text = Files.readString(pom).replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "")
                    .replaceAll("(?s)<parent>.*?</parent>", "");
            Matcher d = DEPENDENCY.matcher(text);
            while (d.find()) {
                String to = d.group(1);
                if (!to.equals(m) && !allowed(m, to)) {
                    wrong.add(m + " -> " + to);
                }
            }
        }
        assertEquals(List.of(), wrong, "POM dependencies against the layers");
    }

    @Test
    void codeUsesLowerLayersOnly() throws IOException {
        TreeSet<String> wrong = new TreeSet<>();
        int files = 0;
        for (String m : modules()) {
            Path src = ROOT.resolve(m).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            List<Path> sources;
            try (Stream<Path> s = Files.walk(src)) {
                sources = s.filter(p -> p.toString().endsWith(".java")).toList();
            }
            for (Path f : sources) {
                files++;
                Matcher r = REFERENCE.matcher(Files.readString(f));
                while (r.find()) {
                    String to = r.group(1);
                    if (LAYERS.containsKey(to) || BESIDE.containsKey(to)) {
                        if (!allowed(m, to)) {
                            wrong.add(m + " -> " + to + " (" + ROOT.resolve(m).relativize(f) + ")");
                        }
                    }
                }
            }
        }
        assertTrue(files > 100, files + " source files read");
        assertEquals(List.of(), List.copyOf(wrong), "code references against the layers");
    }

    @Test
    void theApiModulesPomNamesNoServerLibrary() throws IOException {
        String pom = Files.readString(ROOT.resolve("api/pom.xml"));
        Matcher artifact = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(pom);
        List<String> named = new ArrayList<>();
        while (artifact.find()) {
            named.add(artifact.group(1));
        }
        assertTrue(named.contains("grpc-netty-shaded"), "the API module's POM read: " + named);
        assertEquals(List.of(), named.stream().filter(SERVER_LIBRARIES::contains).toList(),
                "server libraries in api/pom.xml");
    }

    @Test
    void theCommandTalksToDaemonsThroughTheClientOnly() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<Map.Entry<String, Path>> cli = mainSources().stream().filter(f -> f.getKey().equals("cli")).toList();
        for (Map.Entry<String, Path> f : cli) {
            Matcher named = Pattern.compile("\\b(io\\.grpc|dev\\.proofline\\.api\\.v1)\\.")
                    .matcher(Files.readString(f.getValue()));
            if (named.find()) {
                wrong.add(ROOT.relativize(f.getValue()) + " names " + named.group(1));
            }
        }
        assertTrue(cli.size() > 20, cli.size() + " source files of the command read");
        assertEquals(List.of(), wrong, "the command's client code goes through dev.proofline.api.ProoflineClient");
    }

    /** Every main source file of a module, with its module's name. */
    private static List<Map.Entry<String, Path>> mainSources() throws IOException {
        List<Map.Entry<String, Path>> out = new ArrayList<>();
        for (String m : modules()) {
            Path src = ROOT.resolve(m).resolve("src/main/java");
            if (Files.isDirectory(src)) {
                try (Stream<Path> s = Files.walk(src)) {
                    s.filter(p -> p.toString().endsWith(".java")).forEach(p -> out.add(Map.entry(m, p)));
                }
            }
        }
        return out;
    }

    @Test
    void pluginsAreLeavesThatNothingNames() throws IOException {
        TreeSet<String> wrong = new TreeSet<>();
        List<Map.Entry<String, Path>> sources = mainSources();
        for (Map.Entry<String, Path> f : sources) {
            Matcher r = REFERENCE.matcher(Files.readString(f.getValue()));
            while (r.find()) {
                if (PLUGINS.contains(r.group(1)) && !r.group(1).equals(f.getKey())) {
                    wrong.add(f.getKey() + " names " + r.group(1) + " (" + ROOT.relativize(f.getValue()) + ")");
                }
            }
        }
        for (String m : modules()) {
            Path pom = ROOT.resolve(m).resolve("pom.xml");
            if (PLUGINS.contains(m) || !Files.exists(pom)) {
                continue;
            }
            String text = Files.readString(pom).replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "");
            Matcher d = DEPENDENCY_BLOCK.matcher(text);
            while (d.find()) {
                Matcher a = DEPENDENCY.matcher(d.group(1));
                if (a.find() && PLUGINS.contains(a.group(1))) {
                    Matcher scope = SCOPE.matcher(d.group(1));
                    String sc = scope.find() ? scope.group(1) : "compile";
                    if (!sc.equals("runtime") && !sc.equals("test")) {
                        wrong.add(m + "/pom.xml depends on " + a.group(1) + " in scope " + sc);
                    }
                }
            }
        }
        for (String plugin : PLUGINS) {
            Path services = ROOT.resolve(plugin).resolve("src/main/resources/META-INF/services");
            if (!Files.isDirectory(services)) {
                wrong.add(plugin + " registers no provider in META-INF/services");
            }
        }
        assertTrue(sources.size() > 100, sources.size() + " source files read");
        assertEquals(List.of(), List.copyOf(wrong), "plugins are found through ServiceLoader, never named");
    }
}
