package dev.proofline.r1cs.wasm;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * circom's symbol file ({@code circuit.sym}, written with {@code --sym}): one line per signal,
 * {@code signal,witness index,component,name} with names such as {@code main.a}, {@code main.k[2]} or
 * {@code main.q[1].x}. The witness generator knows its inputs only by the hashes of their names; the
 * names here are what lets an error name an input that was not given.
 */
final class CircomSymbols {

    /** Distinct names kept: enough for any circuit's inputs, bounded for a symbol file of millions of lines. */
    private static final int MAX_NAMES = 100_000;
    private static final Pattern TRAILING_INDICES = Pattern.compile("(\\[[0-9]+\\])+$");

    private CircomSymbols() {
    }

    /** Where circom writes the symbol file of {@code wasm}: beside it, or beside its {@code <name>_js} directory. */
    static Optional<Path> beside(Path wasm) {
        String file = wasm.getFileName().toString();
        String stem = file.endsWith(".wasm") ? file.substring(0, file.length() - 5) : file;
        Path dir = wasm.toAbsolutePath().getParent();
        Path here = dir.resolve(stem + ".sym");
        if (Files.isRegularFile(here)) {
            return Optional.of(here);
        }
        Path up = dir.getParent() == null ? null : dir.getParent().resolve(stem + ".sym");
        return up != null && Files.isRegularFile(up) ? Optional.of(up) : Optional.empty();
    }

    /**
     * The names of the main component's signals as an input names them (without "main." and without
     * the indices of an array signal: {@code main.k[2]} is {@code k}), in file order; among them are
     * the inputs. Empty when the file cannot be read.
     */
    static Set<String> mainSignals(Path sym) {
        Set<String> names = new LinkedHashSet<>();
        try (BufferedReader in = Files.newBufferedReader(sym, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null && names.size() < MAX_NAMES; line = in.readLine()) {
                int comma = line.lastIndexOf(',');
                String name = line.substring(comma + 1).strip();
                if (name.startsWith("main.")) {
                    names.add(TRAILING_INDICES.matcher(name.substring(5)).replaceFirst(""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
        return names;
    }
}
