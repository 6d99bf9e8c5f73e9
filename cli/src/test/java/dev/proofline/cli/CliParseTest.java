package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The check the docs' command lines go through: the shell's words, and what parsing refuses. */
class CliParseTest {

    @Test
    void wordsAreSplitAsTheShellSplitsThem() {
        assertEquals(List.of("zkey", "beacon", "a.zkey", "<beacon hash, hex>", "10", "-n=final beacon"),
                CliParse.words("zkey beacon a.zkey <beacon hash, hex> 10 -n=\"final beacon\"   # a comment"));
        assertEquals(List.of("daemon", "--keys", "keys/"), CliParse.words("daemon --keys keys/ &"));
        assertEquals(List.of("cancel", "$(./proofline submit w1.wtns)"),
                CliParse.words("cancel \"$(./proofline submit w1.wtns)\""));
    }

    @Test
    void anExtraArgumentAnUnknownOptionOrCommandIsRefusedWhereHelpWouldHideIt() {
        assertEquals(Optional.empty(), CliParse.problem(List.of("r1cs", "info", "a.r1cs")));
        assertEquals(Optional.empty(),
                CliParse.problem(List.of("zkey", "export", "verificationkey", "a.zkey", "v.json")));
        assertTrue(CliParse.problem(List.of("r1cs", "info", "a.r1cs", "b.r1cs")).orElseThrow().contains("'b.r1cs'"));
        assertTrue(CliParse.problem(List.of("prove", "--nonsense", "a", "b", "c", "d")).orElseThrow()
                .contains("--nonsense"));
        assertTrue(CliParse.problem(List.of("zkey", "bogus")).orElseThrow().contains("bogus"));
        assertTrue(CliParse.problem(List.of("verify", "vk.json", "public.json")).isPresent(), "a missing argument");
        // picocli takes any arguments beside --help, so help is no check of a command line
        assertEquals(0, CliRun.of("r1cs", "info", "a.r1cs", "b.r1cs", "--help").code());
    }
}
