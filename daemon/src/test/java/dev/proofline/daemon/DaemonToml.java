package dev.proofline.daemon;

import dev.proofline.daemon.config.DaemonConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The configuration text of a test's daemon: both ports on loopback where the system picks, jobs kept in
 * memory, keys read from one folder. A test sets only what it varies ({@code engine.permits},
 * {@code server.auth_token}, ...), so that what each daemon is for stands out, and paths are quoted the
 * same way everywhere.
 */
public final class DaemonToml {

    private final Map<String, Map<String, String>> sections = new LinkedHashMap<>();

    private DaemonToml() {
    }

    /** A daemon on the memory store with its keys in {@code keys}. */
    public static DaemonToml inMemory(Path keys) {
        return new DaemonToml()
                .set("server.grpc_listen", "127.0.0.1:0")
                .set("server.http_listen", "127.0.0.1:0")
                .set("store.kind", "memory")
                .set("keys.directory", keys);
    }

    /**
     * Sets {@code key} ({@code section.name}) to {@code value}: a string or a path as a TOML string, a
     * number or a boolean as it is, a list as an array of those. A key set again takes the new value.
     */
    public DaemonToml set(String key, Object value) {
        int dot = key.indexOf('.');
        if (dot <= 0) {
            throw new IllegalArgumentException("not section.name: " + key);
        }
        sections.computeIfAbsent(key.substring(0, dot), s -> new LinkedHashMap<>())
                .put(key.substring(dot + 1), toml(value));
        return this;
    }

    /** The TOML text, one table per section in the order they were first set. */
    public String text() {
        StringBuilder out = new StringBuilder();
        sections.forEach((section, keys) -> {
            out.append('[').append(section).append("]\n");
            keys.forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
        });
        return out.toString();
    }

    /** The configuration, parsed as if read from a file called {@code name}. */
    public DaemonConfig parse(String name) {
        return DaemonConfig.parse(text(), name);
    }

    /** Writes the text to {@code file}, for a daemon in a process of its own. */
    public Path write(Path file) throws IOException {
        return Files.writeString(file, text());
    }

    private static String toml(Object value) {
        return switch (value) {
            case Number n -> n.toString();
            case Boolean b -> b.toString();
            case List<?> l -> l.stream().map(DaemonToml::toml).collect(Collectors.joining(", ", "[", "]"));
            default -> '"' + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + '"';
        };
    }
}
