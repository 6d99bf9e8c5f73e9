package dev.proofline.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.cli.HelpText;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lab's {@code bench} commands in {@code --help}, checked as the command line's others are
 * ({@link HelpText}): the CLI module's test cannot see them, since the lab left the CLI.
 */
class HelpTextTest {

    @Test
    void theBenchCommandsAndTheirOptionsAreDescribedInWholeSentences() {
        HelpText help = HelpText.check();
        for (String command : List.of("proofline bench engine", "proofline bench synth", "proofline bench cluster")) {
            assertTrue(help.walked().contains(command), command + " in " + help.walked());
        }
        assertEquals(List.of(), help.problems(), String.join("\n", help.problems()));
    }
}
