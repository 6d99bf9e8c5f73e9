package dev.proofline.daemon.jobs;

import java.util.regex.Pattern;

/** What a client may read of a server-side message: the problem, without the server's file paths. */
public final class ClientMessages {

    /**
     * An absolute path: a slash not preceded by a word character or a dot, then segments. Keys are named by
     * circuit id in requests, so a path in a message is always the server's own.
     */
    private static final Pattern ABSOLUTE_PATH = Pattern.compile("(?<![\\w.])/(?:[^\\s/:'\"(),;]+/)*([^\\s/:'\"(),;]+)");

    private ClientMessages() {
    }

    /** {@code message} with every absolute path cut to its file name ({@code /srv/keys/m/circuit.zkey} → {@code circuit.zkey}). */
    public static String redact(String message) {
        return message == null ? null : ABSOLUTE_PATH.matcher(message).replaceAll("$1");
    }
}
