package dev.proofline.cli;

import java.io.PrintWriter;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;

/** What the ceremony commands ({@code powersoftau}, {@code zkey new|contribute|beacon|verify}) print. */
final class CeremonyOutput {

    private CeremonyOutput() {
    }

    /** A step's progress lines, on the command's stderr as they come. */
    static Consumer<String> progress(CommandSpec spec) {
        PrintWriter err = spec.commandLine().getErr();
        return m -> {
            err.println(m);
            err.flush();
        };
    }

    /** Blocks of text (hashes as snarkjs prints them) on the command's stdout. */
    static void print(CommandSpec spec, String... blocks) {
        PrintWriter out = spec.commandLine().getOut();
        for (String b : blocks) {
            out.println(b);
        }
        out.flush();
    }
}
