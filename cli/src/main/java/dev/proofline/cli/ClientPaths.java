package dev.proofline.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;

/**
 * The path arguments of a command the local engine runs for a client: a relative path is resolved
 * against the client's working directory (the engine's own is elsewhere), and messages name it as the
 * client wrote it, so that they read as a one-off process in that directory prints them.
 */
final class ClientPaths implements ITypeConverter<Path> {

    private final Path cwd;
    /** Each resolved relative argument (as text), to the argument as written. */
    private final Map<String, String> written = new HashMap<>();

    /** {@code cwd}: the client's working directory, absolute. */
    ClientPaths(Path cwd) {
        if (!cwd.isAbsolute()) {
            throw new IllegalArgumentException("not an absolute directory: " + cwd);
        }
        this.cwd = cwd;
    }

    @Override
    public synchronized Path convert(String value) {
        Path p = Path.of(value);
        if (p.isAbsolute()) {
            return p;
        }
        Path resolved = cwd.resolve(p);
        written.put(resolved.toString(), value);
        // the r1cs a checked key is verified against is named in its refusal: as a one-off run names it,
        // beside the key as written
        if (value.endsWith(".zkey")) {
            List<Path> beside = VerifiedKeys.r1csCandidates(resolved);
            List<Path> besideAsWritten = VerifiedKeys.r1csCandidates(p);
            for (int i = 0; i < beside.size(); i++) {
                written.putIfAbsent(beside.get(i).toString(), besideAsWritten.get(i).toString());
            }
        }
        return resolved;
    }

    /** {@code message} with each resolved argument named as written (the longest first, so none is cut). */
    synchronized String asWritten(String message) {
        List<String> resolved = new ArrayList<>(written.keySet());
        resolved.sort(Comparator.comparingInt(String::length).reversed());
        for (String r : resolved) {
            message = message.replace(r, written.get(r));
        }
        return message;
    }
}
