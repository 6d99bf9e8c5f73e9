package dev.proofline.groth16.io;

import java.util.List;
import java.util.Map;

/**
 * Writes JSON as snarkjs writes proof.json, public.json and verification_key.json (its JSON writer
 * with one space of indentation): the layout of JavaScript's {@code JSON.stringify(value, null, 1)}
 * (every array element and object member on its own line, {@code "key": value}), except that an empty
 * array is written as {@code [}, a newline and {@code ]} (public.json of a circuit without public
 * signals). Values are maps (insertion order kept), lists, strings and integers.
 */
final class JsonText {

    private JsonText() {
    }

    static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, int depth) {
        switch (v) {
            case String s -> string(b, s);
            case Integer i -> b.append(i);
            case Long l -> b.append(l);
            case Map<?, ?> m -> {
                if (m.isEmpty()) {
                    b.append("{}");
                    return;
                }
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    b.append(first ? "\n" : ",\n");
                    first = false;
                    indent(b, depth + 1);
                    string(b, String.valueOf(e.getKey()));
                    b.append(": ");
                    write(b, e.getValue(), depth + 1);
                }
                b.append('\n');
                indent(b, depth);
                b.append('}');
            }
            case List<?> l -> {
                if (l.isEmpty()) {
                    b.append("[\n");
                    indent(b, depth);
                    b.append(']');
                    return;
                }
                b.append('[');
                boolean first = true;
                for (Object e : l) {
                    b.append(first ? "\n" : ",\n");
                    first = false;
                    indent(b, depth + 1);
                    write(b, e, depth + 1);
                }
                b.append('\n');
                indent(b, depth);
                b.append(']');
            }
            default -> throw new IllegalArgumentException("cannot write " + v.getClass().getSimpleName() + " as JSON");
        }
    }

    private static void indent(StringBuilder b, int depth) {
        b.append(" ".repeat(depth));
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
