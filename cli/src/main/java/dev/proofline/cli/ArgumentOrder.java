package dev.proofline.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files given in the wrong order: each argument's kind is told from its first bytes (a binary format's
 * magic, or the shape of a snarkjs JSON file), so that a swapped pair is refused with the order the
 * command takes, before a parser reports what it did not find ("expected a JSON array", a .wasm read as
 * JSON). A file whose kind cannot be told (missing, unreadable, another format) is left to its reader.
 * The commands under snarkjs's names check their files so too (zkey export, r1cs info, wtns check).
 */
final class ArgumentOrder {

    /** The kinds of file the commands take, as their usage lines name them. */
    enum Kind {
        WASM("a circom witness generator (.wasm)"),
        ZKEY("a proving key (.zkey)"),
        WTNS("a witness (.wtns)"),
        R1CS("a constraint system (.r1cs)"),
        PROOF("a proof (proof.json)"),
        PUBLIC("public signals (public.json)"),
        VERIFICATION_KEY("a verification key (verification_key.json)"),
        INPUT("circom inputs (input.json)"),
        UNKNOWN("");

        private final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    /** How much of a JSON file is looked at for its top-level keys. */
    private static final int JSON_PREFIX = 64 << 10;

    private ArgumentOrder() {
    }

    /**
     * Refuses {@code file}, given where {@code expected} goes, when it is plainly another kind:
     * "public.json is a proof (proof.json), not public signals (public.json): the order is ...".
     */
    static void expect(Path file, Kind expected, String usage) {
        Kind found = kind(file);
        if (found != Kind.UNKNOWN && found != expected) {
            throw new IllegalArgumentException(file + " is " + found.description + ", not " + expected.description
                    + ": the order is " + usage);
        }
    }

    /** The kind of {@code file} from its first bytes; {@link Kind#UNKNOWN} when it cannot be told. */
    static Kind kind(Path file) {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(JSON_PREFIX);
        } catch (IOException | RuntimeException e) {
            return Kind.UNKNOWN;
        }
        if (head.length >= 4) {
            String magic = new String(head, 0, 4, StandardCharsets.ISO_8859_1);
            switch (magic) {
                case "\0asm" -> {
                    return Kind.WASM;
                }
                case "zkey" -> {
                    return Kind.ZKEY;
                }
                case "wtns" -> {
                    return Kind.WTNS;
                }
                case "r1cs" -> {
                    return Kind.R1CS;
                }
                default -> {
                }
            }
        }
        String text = new String(head, StandardCharsets.UTF_8).stripLeading();
        if (text.startsWith("[")) {
            return Kind.PUBLIC;
        }
        if (!text.startsWith("{")) {
            return Kind.UNKNOWN;
        }
        if (text.contains("\"pi_a\"")) {
            return Kind.PROOF;
        }
        if (text.contains("\"vk_alpha_1\"")) {
            return Kind.VERIFICATION_KEY;
        }
        return Kind.INPUT;
    }
}
