package dev.proofline.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.testing.Node;
import dev.proofline.cli.CliParse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The commands the docs give. Every {@code ./proofline} line of the README and of docs/ names a command
 * and options this command line has, with the arguments it takes: each is split as the shell splits it
 * and parsed ({@link CliParse}), so that a renamed command or option, or a changed argument list, fails
 * here rather than for a reader.
 * The lab is on this class path, so {@code bench} lines are checked too. The lines that need files are
 * run on real ones by the tests of their docs (DaemonTourTest, DaemonDocsCommandsTest,
 * CircomDocCommandsTest, SetupDocCommandsTest). Every Maven command that picks modules builds the
 * modules they use as well.
 */
class DocsCommandLinesTest {

    /** A Maven command as the docs write it, in a block or between backquotes. */
    private static final Pattern MAVEN = Pattern.compile("\\./mvnw[^`\\n]*");

    /** The README, the JavaScript client's and every page of docs/ (its decision records are history). */
    private static List<Path> docs(Path root) throws IOException {
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("clients/js/README.md")));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /**
     * A Maven command that builds some modules ({@code -pl}) also builds the modules they use ({@code -am}):
     * without it Maven takes those from the local repository, where a clone that ran the README's
     * {@code ./mvnw -B verify} has none ("Could not resolve dependencies"), and a machine that once ran
     * {@code install} has old ones, which the test then runs against.
     */
    @Test
    void everyMavenCommandThatPicksModulesBuildsWhatTheyUse() throws IOException {
        Path root = Node.repositoryRoot();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Path doc : docs(root)) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = MAVEN.matcher(lines.get(i));
                while (m.find()) {
                    List<String> words = List.of(m.group().split("\\s+"));
                    if (words.contains("-pl")) {
                        checked++;
                        if (!words.contains("-am")) {
                            failures.add(root.relativize(doc) + ":" + (i + 1) + ": " + m.group().strip());
                        }
                    }
                }
            }
        }
        assertTrue(checked >= 10, "Maven commands with -pl in the docs: " + checked);
        assertEquals(List.of(), failures, String.join("\n", failures));
    }

    @Test
    void everyCommandLineInTheReadmeAndTheDocsParses() throws IOException {
        Path root = Node.repositoryRoot();
        List<Path> docs = docs(root);
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (!line.startsWith("./proofline ")) {
                    continue;
                }
                checked++;
                int number = i + 1;
                CliParse.problem(CliParse.words(line.substring("./proofline ".length())))
                        .ifPresent(p -> failures.add(root.relativize(doc) + ":" + number + ": " + line + "\n    " + p));
            }
        }
        assertTrue(checked >= 60, "command lines found in the docs: " + checked);
        assertEquals(List.of(), failures, String.join("\n", failures));
    }
}
