package dev.proofline.daemon.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Checks a configuration's values, naming the file, the key and the line it is on ({@code text} is the
 * file's text; {@code name} null: "config").
 */
record ConfigChecker(String name, String text) {

    DaemonConfig.ConfigException error(String section, String key, String problem) {
        return new DaemonConfig.ConfigException((name == null ? "config" : name) + ":" + lineOf(section, key) + ": "
                + section + "." + key + ": " + problem);
    }

    /** The line of {@code key} in {@code [section]} (1-based), or "?" . */
    String lineOf(String section, String key) {
        String[] lines = text.split("\n", -1);
        String current = "";
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.startsWith("[") && l.endsWith("]")) {
                current = l.substring(1, l.length() - 1).strip();
            } else if (current.equals(section) && l.matches(Pattern.quote(key) + "\\s*=.*")) {
                return String.valueOf(i + 1);
            }
        }
        return "?";
    }

    /** The line of the {@code [section]} header, or of a top-level {@code section = ...}, or "?". */
    String lineOfSection(String section) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.equals("[" + section + "]") || l.matches(Pattern.quote(section) + "\\s*=.*")) {
                return String.valueOf(i + 1);
            }
        }
        return "?";
    }

    void atLeast(String section, String key, int v, int min) {
        if (v < min) {
            throw error(section, key, v + " is below the minimum of " + min);
        }
    }

    void oneOf(String section, String key, String v, String... allowed) {
        if (!List.of(allowed).contains(v)) {
            throw error(section, key, "'" + v + "' is not one of " + String.join(", ", allowed));
        }
    }

    void bytes(String section, String key, String v) {
        try {
            DaemonConfig.parseBytes(v);
        } catch (IllegalArgumentException ex) {
            throw error(section, key, ex.getMessage());
        }
    }

    void duration(String section, String key, String v) {
        try {
            DaemonConfig.parseDuration(v);
        } catch (IllegalArgumentException ex) {
            throw error(section, key, ex.getMessage());
        }
    }

    void address(String section, String key, String v) {
        int i = v.lastIndexOf(':');
        boolean ok = i > 0;
        if (ok) {
            try {
                int port = Integer.parseInt(v.substring(i + 1));
                ok = port >= 0 && port <= 65535;
            } catch (NumberFormatException ex) {
                ok = false;
            }
        }
        if (!ok) {
            throw error(section, key, "'" + v + "' is not host:port");
        }
    }
}
