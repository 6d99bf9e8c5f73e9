package dev.proofline.daemon.jobs;

import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ceremony.CheckedKeys;
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
 *
 * <p>Where the operator names a prepared powers of tau to check the keys with ({@code [keys]
 * verify_with}, {@code --verify-keys}), a circuit is registered only if its key verifies against its
 * {@code circuit.r1cs} and that file as {@code zkey verify} checks it; a circuit without an r1cs (a
 * built-in one included) cannot be checked, and is skipped too, each with a warning that says why. The
 * outcome of each check is remembered as {@link CheckedKeys} remembers it: a key whose three files have
 * not changed since is found verified, or refused, without checking it again.
 */
public final class KeyDirectory {

    private KeyDirectory() {
    }

    /** Registers the circuits under {@code dir}; returns their ids. */
    public static List<String> register(Circuits circuits, Path dir, Consumer<String> warn) throws IOException {
        return register(circuits, dir, null, warn, m -> { });
    }

    /**
     * As {@link #register(Circuits, Path, Consumer)}, each key checked by {@code verifyWith} (against its
     * prepared ptau; null: no check); {@code info} hears each key that verified, or was found verified.
     */
    public static List<String> register(Circuits circuits, Path dir, CheckedKeys verifyWith, Consumer<String> warn,
            Consumer<String> info) throws IOException {
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
            Path r1cs = f.resolve("circuit.r1cs");
            if (verifyWith != null && !verified(f, zkey, Files.isRegularFile(builtin) ? null : r1cs, verifyWith, warn,
                    info)) {
                continue;
            }
            if (Files.isRegularFile(builtin)) {
                circuits.register(BuiltinCircuit.read(id, zkey, builtin));
                ids.add(id);
                continue;
            }
            Path wasm = f.resolve("circuit.wasm");
            circuits.register(new Circuits.Circom(id, zkey, Files.isRegularFile(wasm) ? wasm : null,
                    Files.isRegularFile(r1cs) ? r1cs : null));
            ids.add(id);
        }
        return ids;
    }

    /** Whether the folder's key verifies against its r1cs (null: a built-in circuit) and the ptau of {@code keys}. */
    private static boolean verified(Path folder, Path zkey, Path r1cs, CheckedKeys keys, Consumer<String> warn,
            Consumer<String> info) {
        Path ptau = keys.ptau();
        if (r1cs == null || !Files.isRegularFile(r1cs)) {
            warn.accept(folder + ": skipped: its key cannot be verified against " + ptau + " without "
                    + (r1cs == null ? "an r1cs (a built-in circuit)" : "circuit.r1cs"));
            return false;
        }
        long t0 = System.nanoTime();
        switch (keys.check(zkey, r1cs)) {
            case CheckedKeys.Verified v -> {
                info.accept(v.source().found()
                        ? folder + ": key verified against its r1cs and " + ptau + v.foundNote()
                        : String.format(java.util.Locale.ROOT, "%s: key verified against its r1cs and %s in %.1f s",
                                folder, ptau, (System.nanoTime() - t0) / 1e9));
                return true;
            }
            case CheckedKeys.Refused r -> {
                warn.accept(folder + ": skipped: its key does not verify against its r1cs and " + ptau + ": " + r.why()
                        + r.foundNote());
                return false;
            }
        }
    }
}
