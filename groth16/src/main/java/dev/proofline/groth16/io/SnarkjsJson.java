package dev.proofline.groth16.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.encoding.PointEncodingException;
import dev.proofline.algebra.encoding.SnarkjsJsonCodec;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.io.InputFiles;
import dev.proofline.r1cs.io.InputLimits;
import dev.proofline.r1cs.io.LimitedJsonMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * snarkjs's JSON files for Groth16: proof.json, public.json and verification_key.json, written byte
 * for byte as snarkjs writes them ({@code JSON.stringify(value, null, 1)}, projective coordinates
 * with z = 1) and read with every field checked.
 */
public final class SnarkjsJson {

    private static final Pattern DECIMAL = Pattern.compile("[0-9]+");

    /** The mapper for the limits configured now. */
    private static final LimitedJsonMapper MAPPER = new LimitedJsonMapper(InputLimits::snarkjsJson,
            b -> b.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));

    private SnarkjsJson() {
    }

    // ---------------------------------------------------------------- proof.json

    public static String proofJson(Proof p) {
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(p.curve().g1Group());
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(p.curve().g2Group());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pi_a", g1.encodeG1(p.a(), 0));
        m.put("pi_b", g2.encodeG2(p.b(), 0));
        m.put("pi_c", g1.encodeG1(p.c(), 0));
        m.put("protocol", "groth16");
        m.put("curve", p.curve().snarkjsName());
        return JsonText.write(m);
    }

    /**
     * Reads a proof. Its curve is the {@code curve} field, or {@code expected} when the field is absent
     * (older snarkjs proofs); a proof for another curve than {@code expected} (when not null) is rejected.
     * Points must be on their curve and in the subgroup of order r.
     */
    public static Proof readProof(Path file, PairingCurve expected) {
        return readProof(file, object(file, read(file)), expected);
    }

    /** As {@link #readProof(Path, PairingCurve)}, from the bytes of a proof.json ({@code name} names it in errors). */
    public static Proof readProof(byte[] json, String name, PairingCurve expected) {
        Path file = Path.of(name);
        return readProof(file, object(file, json), expected);
    }

    private static Proof readProof(Path file, JsonNode root, PairingCurve expected) {
        requireGroth16(file, root);
        PairingCurve curve = curve(file, root, expected);
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(curve.g1Group());
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(curve.g2Group());
        long[] a = g1Point(file, root, "pi_a", g1);
        long[] b = g2Point(file, root, "pi_b", g2);
        long[] c = g1Point(file, root, "pi_c", g1);
        return new Proof(curve, a, b, c);
    }

    // ---------------------------------------------------------------- public.json

    public static String publicJson(List<String> signals) {
        return JsonText.write(signals);
    }

    /** Reads the public signals: an array of decimal strings (numbers are accepted too). */
    public static List<BigInteger> readPublic(Path file) {
        return readPublic(file, tree(file, read(file)));
    }

    /** As {@link #readPublic(Path)}, from the bytes of a public.json ({@code name} names it in errors). */
    public static List<BigInteger> readPublic(byte[] json, String name) {
        Path file = Path.of(name);
        return readPublic(file, tree(file, json));
    }

    private static List<BigInteger> readPublic(Path file, JsonNode root) {
        if (!root.isArray()) {
            throw new FormatException(file, null, "expected a JSON array of decimal strings");
        }
        List<BigInteger> out = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode n = root.get(i);
            String s = n.isTextual() ? digits(file, "signal #" + i, n.asText())
                    : n.isIntegralNumber() ? n.bigIntegerValue().toString() : null;
            if (s == null || !DECIMAL.matcher(s).matches()) {
                throw new FormatException(file, "signal #" + i, "is " + shown(n) + ", expected a non-negative decimal string");
            }
            out.add(new BigInteger(s));
        }
        return out;
    }

    // ---------------------------------------------------------------- verification_key.json

    public static String verificationKeyJson(VerificationKey vk) {
        PairingCurve curve = vk.curve();
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(curve.g1Group());
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(curve.g2Group());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("protocol", "groth16");
        m.put("curve", curve.snarkjsName());
        m.put("nPublic", vk.publicCount());
        m.put("vk_alpha_1", g1.encodeG1(vk.alpha1(), 0));
        m.put("vk_beta_2", g2.encodeG2(vk.beta2(), 0));
        m.put("vk_gamma_2", g2.encodeG2(vk.gamma2(), 0));
        m.put("vk_delta_2", g2.encodeG2(vk.delta2(), 0));
        m.put("vk_alphabeta_12", fp12(curve.fp(), vk.alphaBeta()));
        List<Object> ic = new ArrayList<>();
        long[] icv = vk.ic();
        for (int i = 0; i <= vk.publicCount(); i++) {
            ic.add(g1.encodeG1(icv, i * curve.g1().affineWidth()));
        }
        m.put("IC", ic);
        return JsonText.write(m);
    }

    /** [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each an Fp2 pair of decimal strings. */
    private static List<Object> fp12(PrimeField fp, long[] f) {
        int n = fp.limbs();
        List<Object> out = new ArrayList<>();
        for (int half = 0; half < 2; half++) {
            List<Object> fp6 = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                int at = (half * 6 + k * 2) * n;
                fp6.add(List.of(fp.toDecimal(f, at), fp.toDecimal(f, at + n)));
            }
            out.add(fp6);
        }
        return out;
    }

    public static VerificationKey readVerificationKey(Path file) {
        return readVerificationKey(file, object(file, read(file)));
    }

    /** As {@link #readVerificationKey(Path)}, from the bytes of a verification_key.json ({@code name} names it in errors). */
    public static VerificationKey readVerificationKey(byte[] json, String name) {
        Path file = Path.of(name);
        return readVerificationKey(file, object(file, json));
    }

    private static VerificationKey readVerificationKey(Path file, JsonNode root) {
        requireGroth16(file, root);
        PairingCurve curve = curve(file, root, null);
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(curve.g1Group());
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(curve.g2Group());
        long[] alpha = g1Point(file, root, "vk_alpha_1", g1);
        long[] beta = g2Point(file, root, "vk_beta_2", g2);
        long[] gamma = g2Point(file, root, "vk_gamma_2", g2);
        long[] delta = g2Point(file, root, "vk_delta_2", g2);
        JsonNode icNode = root.get("IC");
        if (icNode == null || !icNode.isArray() || icNode.isEmpty()) {
            throw new FormatException(file, "IC", "missing or not a non-empty array of G1 points");
        }
        int aw = curve.g1().affineWidth();
        long[] ic = new long[icNode.size() * aw];
        for (int i = 0; i < icNode.size(); i++) {
            long[] p = g1Point(file, icNode.get(i), "IC[" + i + "]", g1);
            System.arraycopy(p, 0, ic, i * aw, aw);
        }
        JsonNode np = root.get("nPublic");
        int nPublic = icNode.size() - 1;
        if (np != null && (!np.canConvertToInt() || np.asInt() != nPublic)) {
            throw new FormatException(file, "nPublic", "is " + shown(np) + " but IC holds " + icNode.size()
                    + " points (nPublic + 1)");
        }
        return new VerificationKey(curve, nPublic, alpha, beta, gamma, delta, ic);
    }

    // ---------------------------------------------------------------- files

    /** Writes text as snarkjs does: UTF-8, no trailing newline. */
    public static void write(Path file, String json) throws IOException {
        Files.writeString(file, json, StandardCharsets.UTF_8);
    }

    private static byte[] read(Path file) {
        return InputFiles.readBounded(file, InputLimits.snarkjsJson().maxBytes(), InputLimits.JSON_BYTES);
    }

    private static JsonNode tree(Path file, byte[] bytes) {
        try {
            JsonNode n = MAPPER.current().readTree(bytes);
            if (n == null || n.isMissingNode()) {
                throw new FormatException(file, null, "empty, expected JSON");
            }
            return n;
        } catch (StreamConstraintsException e) {
            throw new FormatException(file, null, "over a limit: " + InputLimits.describe(e), e);
        } catch (MismatchedInputException e) {
            // FAIL_ON_TRAILING_TOKENS: its message names Jackson's classes
            throw new FormatException(file, null, "not valid JSON: " + (e.getOriginalMessage().startsWith("Trailing token")
                    ? "more content after the JSON value" : e.getOriginalMessage()), e);
        } catch (JsonProcessingException e) {
            throw new FormatException(file, null, "not valid JSON: " + e.getOriginalMessage(), e);
        } catch (NumberFormatException e) {
            throw new FormatException(file, null, "a number cannot be read: its exponent is out of range", e);
        } catch (IOException e) {
            throw new FormatException(file, null, "cannot read: " + e.getMessage(), e);
        }
    }

    /** A value as an error message shows it: at most 80 characters of its JSON. */
    private static String shown(JsonNode n) {
        return shown(n.toString());
    }

    private static String shown(String s) {
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    /** A decimal string's text, refused when longer than any number this project reads. */
    private static String digits(Path file, String field, String s) {
        if (s.length() > InputLimits.MAX_NUMBER_CHARS) {
            throw new FormatException(file, field, "a string of " + s.length() + " characters where a number is expected,"
                    + " at most " + InputLimits.MAX_NUMBER_CHARS + " are read");
        }
        return s;
    }

    private static JsonNode object(Path file, byte[] bytes) {
        JsonNode n = tree(file, bytes);
        if (!n.isObject()) {
            throw new FormatException(file, null, "expected a JSON object");
        }
        return n;
    }

    /** The optional {@code protocol} field must say "groth16". */
    private static void requireGroth16(Path file, JsonNode root) {
        String protocol = optionalText(file, root, "protocol");
        if (protocol != null && !protocol.equals("groth16")) {
            throw new FormatException(file, "protocol", "is \"" + shown(protocol) + "\", expected \"groth16\"");
        }
    }

    private static String optionalText(Path file, JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new FormatException(file, field, "is " + shown(n) + ", expected a string");
        }
        return n.asText();
    }

    private static PairingCurve curve(Path file, JsonNode root, PairingCurve expected) {
        String name = optionalText(file, root, "curve");
        if (name == null) {
            if (expected == null) {
                throw new FormatException(file, "curve", "missing (expected \"bn128\" or \"bls12381\")");
            }
            return expected;
        }
        PairingCurve c = PairingCurve.bySnarkjsName(name).orElseThrow(() -> new FormatException(file, "curve",
                "\"" + shown(name) + "\" is not supported (expected \"bn128\" or \"bls12381\")"));
        if (expected != null && c != expected) {
            throw new FormatException(file, "curve", "is " + c.snarkjsName() + ", expected " + expected.snarkjsName());
        }
        return c;
    }

    private static long[] g1Point(Path file, JsonNode parent, String field, SnarkjsJsonCodec codec) {
        JsonNode n = parent.has(field) ? parent.get(field) : parent.isArray() ? parent : null;
        if (n == null) {
            throw new FormatException(file, field, "missing");
        }
        try {
            return codec.decodeG1(strings(file, field, n));
        } catch (PointEncodingException e) {
            throw new FormatException(file, field, e.getMessage());
        }
    }

    private static long[] g2Point(Path file, JsonNode parent, String field, SnarkjsJsonCodec codec) {
        JsonNode n = parent.get(field);
        if (n == null || !n.isArray()) {
            throw new FormatException(file, field, n == null ? "missing" : "expected an array of [c0, c1] pairs");
        }
        List<List<String>> coords = new ArrayList<>();
        for (JsonNode c : n) {
            coords.add(strings(file, field, c));
        }
        try {
            return codec.decodeG2(coords);
        } catch (PointEncodingException e) {
            throw new FormatException(file, field, e.getMessage());
        }
    }

    private static List<String> strings(Path file, String field, JsonNode n) {
        if (!n.isArray()) {
            throw new FormatException(file, field, "is " + shown(n) + ", expected an array of decimal strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : n) {
            if (e.isTextual()) {
                out.add(digits(file, field, e.asText()));
            } else if (e.isIntegralNumber()) {
                out.add(e.bigIntegerValue().toString());
            } else {
                throw new FormatException(file, field, "element " + shown(e) + " is not a decimal string");
            }
        }
        return out;
    }
}
