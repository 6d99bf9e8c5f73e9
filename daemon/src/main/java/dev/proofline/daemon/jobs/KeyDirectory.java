package dev.proofline.daemon.jobs;

import dev.proofline.engine.groth16.Circuits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Circuits from a directory: one folder per circuit, named by its id, holding {@code circuit.zkey}
 * and optionally {@code circuit.wasm} (partitions as inputs) and {@code circuit.r1cs} (a, b, c by
 * the PCE); or {@code circuit.zkey} and {@code builtin.toml}, naming a built-in Java circuit and its
 * size (partitions are then inputs {@code {"seed": n}}, each an instance). Folders whose name is not a
 * valid id, or without a key, are skipped with a warning.
 */
public final class KeyDirectory {

    private KeyDirectory() {
    }

    /** Registers the circuits under {@code dir}; returns their ids. */
    public static List<String> register(Circuits circuits, Path dir, Consumer<String> warn) throws IOException {
        List<String> ids = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            warn.accept("keys directory " + dir + " does not exist: no circuits registered from it");
            return ids;
        }
        List<Path> folders;
        try (Stream<Path> s = Files.list(dir)) {
            folders = s.filter(Files::isDirectory).sorted().toList();
        }
        for (Path f : folders) {
            String id = f.getFileName().toString();
            try {
                Circuits.checkId(id);
            } catch (IllegalArgumentException e) {
                warn.accept(f + ": skipped: " + e.getMessage());
                continue;
            }
            Path zkey = f.resolve("circuit.zkey");
            if (!Files.isRegularFile(zkey)) {
                warn.accept(f + ": skipped: no circuit.zkey");
                continue;
            }
            Path builtin = f.resolve("builtin.toml");
            if (Files.isRegularFile(builtin)) {
                circuits.register(BuiltinCircuit.read(id, zkey, builtin));
                ids.add(id);
                continue;
            }
            Path wasm = f.resolve("circuit.wasm");
            Path r1cs = f.resolve("circuit.r1cs");
            circuits.register(new Circuits.Circom(id, zkey, Files.isRegularFile(wasm) ? wasm : null,
                    Files.isRegularFile(r1cs) ? r1cs : null));
            ids.add(id);
        }
        return ids;
    }
}
