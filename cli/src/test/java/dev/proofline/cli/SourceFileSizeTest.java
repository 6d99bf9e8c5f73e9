package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No hand-written main source file is over {@value #MAX_LINES} lines: past that a class holds more than
 * one responsibility, and is split along its seams rather than let grow. Read from the tree itself (this
 * module is the top one, so every module is beside it).
 */
class SourceFileSizeTest {

    private static final int MAX_LINES = 500;

    /**
     * Files allowed over the limit, by path from the repository's root. Each is an unrolled vector kernel:
     * limb arithmetic written out limb by limb ({@code algebra/src/codegen} holds the scripts that write
     * them), a straight run of operations with no seam to split along.
     */
    private static final Set<String> ALLOWED = Set.of(
            "algebra/src/main/java/dev/proofline/algebra/msm/VectorBatchAffine4.java",
            "algebra/src/main/java/dev/proofline/algebra/msm/VectorBatchAffine6.java",
            "algebra/src/main/java/dev/proofline/algebra/ntt/VectorButterflies.java");

    private static final Path ROOT = Path.of("..");
    private static final Pattern MODULE = Pattern.compile("<module>([a-z0-9-]+)</module>");

    private static List<String> modules() throws IOException {
        List<String> ms = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) {
            ms.add(m.group(1));
        }
        return ms;
    }

    private static String relative(Path file) {
        return ROOT.relativize(file).toString().replace('\\', '/');
    }

    @Test
    void noMainSourceFileIsOverTheLimit() throws IOException {
        List<String> modules = modules();
        // the walk reads the tree it should: the modules the rule is about are found
        assertTrue(modules.containsAll(List.of("algebra", "daemon", "cli", "lab")), "modules: " + modules);
        List<String> over = new ArrayList<>();
        int files = 0;
        for (String module : modules) {
            Path src = ROOT.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            List<Path> sources;
            try (Stream<Path> s = Files.walk(src)) {
                sources = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
            }
            for (Path p : sources) {
                files++;
                int lines = Files.readAllLines(p).size();
                if (lines > MAX_LINES && !ALLOWED.contains(relative(p))) {
                    over.add(relative(p) + ": " + lines + " lines");
                }
            }
        }
        assertTrue(files > 0, "no source files under " + ROOT.toAbsolutePath().normalize());
        assertEquals(List.of(), over, "main source files over " + MAX_LINES + " lines: split each along a seam of"
                + " its responsibilities");
    }

    @Test
    void theAllowedFilesExist() {
        // the list names only files that are there: one moved or removed is taken off it
        List<String> missing = ALLOWED.stream().filter(f -> !Files.isRegularFile(ROOT.resolve(f))).sorted().toList();
        assertEquals(List.of(), missing, "allowed over " + MAX_LINES + " lines, but not in the tree");
    }
}
