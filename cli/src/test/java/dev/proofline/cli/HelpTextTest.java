package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every command's {@code --help} describes the command in whole sentences and every option ({@link
 * HelpText}); the lab's {@code bench} commands are checked by the lab's own HelpTextTest.
 */
class HelpTextTest {

    @Test
    void everyVisibleCommandAndOptionIsDescribedInWholeSentences() {
        HelpText help = HelpText.check();
        assertTrue(help.walked().contains("proofline groth16 prove"), "the commands walked: " + help.walked());
        assertEquals(List.of(), help.problems(), String.join("\n", help.problems()));
    }
}
