package dev.proofline.r1cs.io;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.util.Locale;

/**
 * The limits every reader applies before it trusts a size, a count or a length that an input
 * declares, so that a corrupt or hostile input costs a small, fixed amount of memory and time before
 * its error. Binary files are bounded by what they declare, checked against their length; JSON is
 * bounded by the limits below. The byte and value limits of JSON are system properties (the
 * {@code proofline} script passes {@code PROOFLINE_JAVA_OPTS}, e.g. {@code -Dproofline.limits.json-bytes=64m})
 * because a large circuit may legitimately need more; the others bound what no valid file comes near.
 */
public final class InputLimits {

    /** Sections in one iden3 binary file (.zkey has 10, .r1cs 5, .wtns 2). */
    public static final int MAX_SECTIONS = 64;
    /** Nesting of JSON arrays and objects (snarkjs's files nest 4 deep, circom inputs a few more). */
    public static final int MAX_JSON_DEPTH = 64;
    /**
     * Characters of one number, or of one string read as a number: a field element has at most 116
     * decimal digits, so this only stops numbers that cost seconds to convert (conversion is quadratic).
     */
    public static final int MAX_NUMBER_CHARS = 1000;
    /** Bytes of the daemon's TOML configuration. */
    public static final long MAX_CONFIG_BYTES = 1L << 20;

    /** Property: bytes of a snarkjs JSON file (proof, public signals, verification key). */
    public static final String JSON_BYTES = "proofline.limits.json-bytes";
    /** Property: values (JSON tokens) of a snarkjs JSON file. */
    public static final String JSON_VALUES = "proofline.limits.json-values";
    /** Property: bytes of a circom input JSON. */
    public static final String INPUT_JSON_BYTES = "proofline.limits.input-json-bytes";
    /** Property: values (JSON tokens) of a circom input JSON. */
    public static final String INPUT_JSON_VALUES = "proofline.limits.input-json-values";

    /**
     * The longest string read from a JSON input, in characters. Strings are numbers or names here (a
     * field element has at most 116 digits), so a longer one is refused where Jackson reads it,
     * before it is held whole: a long string cost several times its size at its peak (the text buffers
     * as they grew, then the string; docs/decisions/0021-json-input-limits.md).
     */
    public static final int MAX_STRING_CHARS = 1 << 20;

    static final long DEFAULT_JSON_BYTES = 16L << 20;
    // a file at the value limit is read whole before anything can refuse it (the public signals
    // before the key's count, an input before the circuit's): 100,000 values keep the command line
    // within the 64 MiB of docs/reliability.md (twice as many did not:
    // docs/decisions/0021-json-input-limits.md) and allow a verification key of 20,000 public signals
    static final long DEFAULT_JSON_VALUES = 100_000;
    static final long DEFAULT_INPUT_JSON_BYTES = 64L << 20;
    static final long DEFAULT_INPUT_JSON_VALUES = 100_000;

    private InputLimits() {
    }

    /** The byte and value limits of one kind of JSON input. */
    public record Json(long maxBytes, long maxValues) {

        /** Jackson's read constraints for this kind: these sizes, {@link #MAX_JSON_DEPTH}, {@link #MAX_NUMBER_CHARS}. */
        public StreamReadConstraints constraints() {
            return StreamReadConstraints.builder()
                    .maxDocumentLength(maxBytes)
                    .maxTokenCount(maxValues)
                    .maxNestingDepth(MAX_JSON_DEPTH)
                    .maxNumberLength(MAX_NUMBER_CHARS)
                    .maxStringLength((int) Math.min(MAX_STRING_CHARS, maxBytes))
                    .build();
        }
    }

    /** The limits of snarkjs's JSON files, as configured now. */
    public static Json snarkjsJson() {
        return new Json(bytes(JSON_BYTES, DEFAULT_JSON_BYTES), count(JSON_VALUES, DEFAULT_JSON_VALUES));
    }

    /** The limits of a circom input JSON, as configured now. */
    public static Json circomInput() {
        return new Json(bytes(INPUT_JSON_BYTES, DEFAULT_INPUT_JSON_BYTES),
                count(INPUT_JSON_VALUES, DEFAULT_INPUT_JSON_VALUES));
    }

    /** Jackson's read constraints for the TOML configuration. */
    public static StreamReadConstraints configConstraints() {
        return new Json(MAX_CONFIG_BYTES, 100_000).constraints();
    }

    /** What a limit's exception says, without the name of the Jackson method that reports the limit. */
    public static String describe(StreamConstraintsException e) {
        return e.getOriginalMessage().replaceAll(", from `StreamReadConstraints\\.[A-Za-z]+\\(\\)`", "")
                + " (limits: docs/reliability.md)";
    }

    /** A byte count, plain or with a k, m or g suffix (powers of 1024). */
    static long bytes(String property, long fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        String s = v.strip().toLowerCase(Locale.ROOT);
        int shift = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1));
            if (n <= 0 || n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " is \"" + v + "\", expected a positive byte count such as 64m");
        }
    }

    static long count(String property, long fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.strip());
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " is \"" + v + "\", expected a positive count");
        }
    }
}
