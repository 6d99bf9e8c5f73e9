package dev.proofline.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * A documented command line checked without running it: split as the shell splits it, then parsed by
 * this command line's model (with the lab's commands where the lab is on the class path). Parsing
 * refuses what running would refuse before any work: an unknown command or option, a missing or extra
 * argument. (Adding {@code --help} is no such check: picocli accepts any arguments beside it.)
 */
public final class CliParse {

    private CliParse() {
    }

    /** What picocli says of {@code words} as a command line, or empty where it parses. */
    public static Optional<String> problem(List<String> words) {
        String[] args = words.toArray(String[]::new);
        try {
            ProoflineCommand.commandLine(Invocation.PROCESS, args).parseArgs(args);
            return Optional.empty();
        } catch (CommandLine.ParameterException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * The words of a documented command line (after {@code ./proofline}) as the shell passes them: a
     * comment and a trailing {@code &} dropped, double quotes removed from around what they hold, and a
     * {@code <placeholder>} (which may hold spaces) kept as one word.
     */
    public static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                int end = line.indexOf('"', i + 1);
                word.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '<' && !inWord) {
                int end = line.indexOf('>', i);
                word.append(line, i, end + 1);
                i = end;
                inWord = true;
            } else if (c == '#' && !inWord) {
                break;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        if (!words.isEmpty() && words.getLast().equals("&")) {
            words.removeLast();
        }
        return words;
    }
}
