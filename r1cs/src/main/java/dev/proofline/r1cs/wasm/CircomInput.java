package dev.proofline.r1cs.wasm;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.proofline.r1cs.io.InputFiles;
import dev.proofline.r1cs.io.InputLimits;
import dev.proofline.r1cs.io.LimitedJsonMapper;
import dev.proofline.r1cs.wasm.WitnessException.Reason;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The inputs of one witness computation, as circom's input.json gives them and snarkjs reads them:
 * a JSON object from signal name to a value, or to a (nested) array of values for an array signal,
 * flattened in row-major order. Names keep the order of the input; values are kept as the integers
 * written (reduced modulo the circuit's prime only when the witness is computed, as snarkjs does).
 *
 * <p>A value is one of:
 * <ul>
 *   <li>a JSON number that is an integer ({@code 5}, {@code -3}, {@code 1e3}, {@code 2.0}). snarkjs
 *       reads numbers as JavaScript doubles, which hold integers exactly only up to 2^53: a larger
 *       number that a double does not hold exactly is rejected (snarkjs would silently use another
 *       value); write it as a string;</li>
 *   <li>a string holding an integer, as JavaScript's {@code BigInt} reads it: decimal with an
 *       optional sign ({@code "-12"}), or hexadecimal {@code "0x1f"}, octal {@code "0o17"} or
 *       binary {@code "0b101"} without a sign; surrounding white space is ignored. An empty string
 *       is rejected (BigInt would read it as 0);</li>
 *   <li>{@code true} or {@code false}, read as 1 and 0 (as BigInt does).</li>
 * </ul>
 * Negative values and values of the prime or above are reduced modulo the prime when the witness is
 * computed: -1 is p - 1, as in snarkjs. Anything else (a fraction, a non-numeric string, null) is
 * rejected with {@link WitnessException.Reason#BAD_VALUE}.
 *
 * <p>Nested objects are qualified as circom's own witness_calculator.js qualifies them for bus
 * inputs (circom 2.2): {@code {"p": {"x": 1}}} sets signal {@code p.x}, and an array of objects
 * {@code {"q": [{"x": 1}, {"x": 2}]}} sets {@code q[0].x} and {@code q[1].x}.
 */
public final class CircomInput {

    /** The mapper for the limits configured now. */
    private static final LimitedJsonMapper MAPPER = new LimitedJsonMapper(InputLimits::circomInput,
            b -> b.enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)));

    private static final BigInteger MAX_SAFE = BigInteger.ONE.shiftLeft(53);
    private static final Pattern DECIMAL = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]+");
    private static final Pattern OCTAL = Pattern.compile("0[oO][0-7]+");
    private static final Pattern BINARY = Pattern.compile("0[bB][01]+");

    private final Map<String, List<BigInteger>> signals;

    private CircomInput(Map<String, List<BigInteger>> signals) {
        this.signals = Collections.unmodifiableMap(signals);
    }

    /** Reads an input.json file. */
    public static CircomInput read(Path file) {
        byte[] bytes = InputFiles.readBounded(file, InputLimits.circomInput().maxBytes(), InputLimits.INPUT_JSON_BYTES);
        return parse(new String(bytes, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses input JSON text; {@code name} (a file name, or null) prefixes error messages. */
    public static CircomInput parse(String json, String name) {
        String where = name == null ? "" : name + ": ";
        JsonNode root;
        try {
            root = MAPPER.current().readTree(json);
        } catch (StreamConstraintsException e) {
            throw new WitnessException(Reason.MALFORMED_INPUT, null, where + "over a limit: " + InputLimits.describe(e));
        } catch (MismatchedInputException e) {
            throw new WitnessException(Reason.MALFORMED_INPUT, null, where + "not valid JSON: "
                    + (e.getOriginalMessage().startsWith("Trailing token") ? "more content after the JSON value"
                            : e.getOriginalMessage()));
        } catch (JacksonException e) {
            throw new WitnessException(Reason.MALFORMED_INPUT, null,
                    where + "not valid JSON: " + e.getOriginalMessage());
        } catch (NumberFormatException e) {
            // Jackson reads 2e1222222222 as a BigDecimal, whose exponent must fit in an int
            throw new WitnessException(Reason.MALFORMED_INPUT, null, where
                    + "a number cannot be read: its exponent is out of range");
        }
        if (root == null || !root.isObject()) {
            throw new WitnessException(Reason.MALFORMED_INPUT, null, where
                    + "the input must be a JSON object of signal names and values, not "
                    + (root == null || root.isMissingNode() ? "nothing" : root.getNodeType().toString().toLowerCase(Locale.ROOT)));
        }
        Map<String, List<BigInteger>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            qualify(e.getKey(), fromJson(e.getValue()), out, where);
        }
        return new CircomInput(out);
    }

    /**
     * An input from Java values: signal name to a value (a {@link BigInteger}, {@link Long},
     * {@link Integer}, a {@link CharSequence} read as in JSON, a {@link Boolean}), or to a
     * {@link List}, an {@code Object[]}, {@code long[]} or {@code int[]} of them for an array signal
     * (nested for more dimensions), or to a {@link Map} for a bus. The map's iteration order is kept.
     */
    public static CircomInput of(Map<String, ?> values) {
        Map<String, List<BigInteger>> out = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : values.entrySet()) {
            qualify(e.getKey(), fromJava(e.getValue()), out, "");
        }
        return new CircomInput(out);
    }

    /** Qualified signal name to its values in order (one for a single signal); the input's order. */
    public Map<String, List<BigInteger>> signals() {
        return signals;
    }

    /** Number of values given, over all signals. */
    public int valueCount() {
        int n = 0;
        for (List<BigInteger> v : signals.values()) {
            n += v.size();
        }
        return n;
    }

    @Override
    public String toString() {
        return "CircomInput" + signals;
    }

    // ---- qualification (circom's qualify_input) ------------------------------------------------

    /** A value that cannot be an integer; reported with the signal it is given for. */
    private record Bad(String problem) {
    }

    private static void qualify(String prefix, Object v, Map<String, List<BigInteger>> out, String where) {
        if (v instanceof List<?> list) {
            List<Object> leaves = new ArrayList<>();
            flatten(list, leaves);
            boolean objects = !leaves.isEmpty() && leaves.getFirst() instanceof Map;
            for (Object leaf : leaves) {
                if ((leaf instanceof Map) != objects) {
                    throw new WitnessException(Reason.BAD_VALUE, prefix, where + "input '"
                            + WitnessException.shown(prefix) + "' mixes objects and values in one array");
                }
            }
            if (objects) {
                qualifyList(prefix, list, out, where);
            } else {
                List<BigInteger> values = new ArrayList<>(leaves.size());
                for (int i = 0; i < leaves.size(); i++) {
                    values.add(value(leaves.get(i), prefix, "[" + i + "]", where));
                }
                out.put(prefix, Collections.unmodifiableList(values));
            }
        } else if (v instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String k = String.valueOf(e.getKey());
                qualify(prefix.isEmpty() ? k : prefix + "." + k, e.getValue(), out, where);
            }
        } else {
            out.put(prefix, List.of(value(v, prefix, "", where)));
        }
    }

    private static void qualifyList(String prefix, List<?> list, Map<String, List<BigInteger>> out, String where) {
        for (int i = 0; i < list.size(); i++) {
            String p = prefix + "[" + i + "]";
            if (list.get(i) instanceof List<?> inner) {
                qualifyList(p, inner, out, where);
            } else {
                qualify(p, list.get(i), out, where);
            }
        }
    }

    private static void flatten(List<?> list, List<Object> out) {
        for (Object o : list) {
            if (o instanceof List<?> inner) {
                flatten(inner, out);
            } else {
                out.add(o);
            }
        }
    }

    private static BigInteger value(Object v, String signal, String index, String where) {
        if (v instanceof BigInteger b) {
            return b;
        }
        if (v instanceof Boolean b) {
            return b ? BigInteger.ONE : BigInteger.ZERO;
        }
        if (v instanceof String s) {
            return parseInteger(s, signal, index, where);
        }
        String problem = v instanceof Bad bad ? bad.problem() : v == null ? "null is not a number" : "a "
                + v.getClass().getSimpleName() + " is not a number";
        throw new WitnessException(Reason.BAD_VALUE, signal, where + "input '" + WitnessException.shown(signal + index)
                + "': " + problem);
    }

    /** A string as JavaScript's BigInt(string) reads it, except that an empty string is rejected. */
    static BigInteger parseInteger(String raw, String signal, String index, String where) {
        String s = jsTrim(raw);
        if (s.length() > InputLimits.MAX_NUMBER_CHARS) {
            throw new WitnessException(Reason.BAD_VALUE, signal, where + "input '"
                    + WitnessException.shown(signal + index) + "': a string of "
                    + s.length() + " characters, a number may have at most " + InputLimits.MAX_NUMBER_CHARS);
        }
        try {
            if (DECIMAL.matcher(s).matches()) {
                return new BigInteger(s.startsWith("+") ? s.substring(1) : s);
            } else if (HEX.matcher(s).matches()) {
                return new BigInteger(s.substring(2), 16);
            } else if (OCTAL.matcher(s).matches()) {
                return new BigInteger(s.substring(2), 8);
            } else if (BINARY.matcher(s).matches()) {
                return new BigInteger(s.substring(2), 2);
            }
        } catch (NumberFormatException e) {
            // cannot happen after the patterns matched; reported below
        }
        String shown = raw.length() > 80 ? raw.substring(0, 77) + "..." : raw;
        throw new WitnessException(Reason.BAD_VALUE, signal, where + "input '" + WitnessException.shown(signal + index)
                + "': \""
                + shown + "\" is not an integer (decimal, or hexadecimal with 0x)");
    }

    private static String jsTrim(String s) {
        int b = 0;
        int e = s.length();
        while (b < e && isJsSpace(s.charAt(b))) {
            b++;
        }
        while (e > b && isJsSpace(s.charAt(e - 1))) {
            e--;
        }
        return s.substring(b, e);
    }

    private static boolean isJsSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\uFEFF';
    }

    // ---- JSON and Java values to one shape: Map, List, BigInteger, String, Boolean, Bad, null ----

    private static Object fromJson(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                m.put(e.getKey(), fromJson(e.getValue()));
            }
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>(n.size());
            for (JsonNode c : n) {
                l.add(fromJson(c));
            }
            return l;
        }
        if (n.isNumber()) {
            return jsonNumber(n);
        }
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isNull()) {
            return null;
        }
        return new Bad(n.getNodeType().toString().toLowerCase(Locale.ROOT) + " is not a number");
    }

    /**
     * The integer a JSON number stands for, when snarkjs reads the same one: it parses numbers as
     * doubles, and BigInt(double) fails on fractions and infinities.
     */
    private static Object jsonNumber(JsonNode n) {
        BigInteger v;
        if (n.isIntegralNumber()) {
            v = n.bigIntegerValue();
        } else {
            BigDecimal d = n.decimalValue();
            if (d.signum() == 0) {
                return BigInteger.ZERO;
            }
            // 1e999999999 is a short text for a number of a billion digits: its size is checked
            // before the integer is built
            if (d.precision() - (long) d.scale() > InputLimits.MAX_NUMBER_CHARS) {
                return new Bad("the number has " + (d.precision() - (long) d.scale()) + " digits, at most "
                        + InputLimits.MAX_NUMBER_CHARS + " are read");
            }
            if (d.stripTrailingZeros().scale() > 0) {
                // toString, not toPlainString: 1e-999999999 has a billion characters in plain notation
                String shown = d.toString();
                return new Bad(shown.length() > 80 ? "a number with a fraction is not an integer"
                        : shown + " is not an integer");
            }
            v = d.toBigInteger();
        }
        if (v.abs().compareTo(MAX_SAFE) <= 0) {
            return v;
        }
        double asDouble = new BigDecimal(v).doubleValue();
        if (!Double.isInfinite(asDouble) && new BigDecimal(asDouble).toBigIntegerExact().equals(v)) {
            return v;
        }
        return new Bad("the number " + (v.bitLength() > 256 ? "of " + v.bitLength() + " bits" : v.toString())
                + " is beyond the integers a JSON number holds exactly (2^53 in JavaScript, which snarkjs"
                + " would round it to " + (Double.isInfinite(asDouble) ? "Infinity"
                        : new BigDecimal(asDouble).toBigIntegerExact().toString())
                + "); write it as a string");
    }

    private static Object fromJava(Object v) {
        if (v == null || v instanceof BigInteger || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigInteger.valueOf(((Number) v).longValue());
        }
        if (v instanceof CharSequence s) {
            return s.toString();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(String.valueOf(e.getKey()), fromJava(e.getValue()));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) {
                out.add(fromJava(o));
            }
            return out;
        }
        if (v instanceof Object[] a) {
            return fromJava(Arrays.asList(a));
        }
        if (v instanceof long[] a) {
            List<Object> out = new ArrayList<>(a.length);
            for (long x : a) {
                out.add(BigInteger.valueOf(x));
            }
            return out;
        }
        if (v instanceof int[] a) {
            List<Object> out = new ArrayList<>(a.length);
            for (int x : a) {
                out.add(BigInteger.valueOf(x));
            }
            return out;
        }
        return new Bad("a " + v.getClass().getSimpleName() + " is not a number");
    }
}
