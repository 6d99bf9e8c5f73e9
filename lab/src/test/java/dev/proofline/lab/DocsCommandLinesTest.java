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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ./proofline} line of the README and of docs/ names a command and options this command
 * line has, with the arguments it takes: each is split as the shell splits it and parsed ({@link CliParse}),
 * so that a renamed command or option, or a changed argument list, fails here rather than for a reader.
 * The lab is on this class path, so {@code bench} lines are checked too. The lines that need files are
 * run on real ones by the tests of their docs (DaemonTourTest, DaemonDocsCommandsTest,
 * CircomDocCommandsTest).
 */
class DocsCommandLinesTest {

    @Test
    void everyCommandLineInTheReadmeAndTheDocsParses() throws IOException {
        Path root = Node.repositoryRoot();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
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
