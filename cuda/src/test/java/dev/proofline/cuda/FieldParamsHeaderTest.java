package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The generated constants of the kernels (src/main/cuda/field_params.cuh) against the Java fields and
 * curves, constant by constant; the arithmetic tests cover the ones in use, this covers all of them.
 */
class FieldParamsHeaderTest {

    private static final Path HEADER = Path.of("src/main/cuda/field_params.cuh");

    private static String struct(String text, String name) {
        int start = text.indexOf("struct " + name + " {");
        assertTrue(start >= 0, name + " in " + HEADER);
        int end = text.indexOf("};", start);
        return text.substring(start, end);
    }

    private static long[] words(String struct, String accessor) {
        Matcher m = Pattern.compile("static constexpr u64 " + accessor + "\\(int i\\) \\{ return ([^;]*);").matcher(struct);
        assertTrue(m.find(), accessor + " in " + struct);
        Matcher lit = Pattern.compile("0x([0-9a-f]{16})ull").matcher(m.group(1));
        List<Long> w = new ArrayList<>();
        while (lit.find()) {
            w.add(Long.parseUnsignedLong(lit.group(1), 16));
        }
        return w.stream().mapToLong(Long::longValue).toArray();
    }

    private static long scalar(String struct, String name) {
        Matcher m = Pattern.compile("static constexpr (?:u64|int) " + name + " = (0x[0-9a-f]+ull|\\d+);").matcher(struct);
        assertTrue(m.find(), name + " in " + struct);
        String v = m.group(1);
        return v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2, v.length() - 3), 16) : Long.parseLong(v);
    }

    private static void checkField(String text, String name, PrimeField f) {
        String s = struct(text, name);
        int n = f.limbs();
        assertEquals(n, scalar(s, "N"), name + " N");
        assertEquals(f.bits(), scalar(s, "BITS"), name + " BITS");
        assertEquals(f.negInvWord(), scalar(s, "QINV"), name + " QINV");
        assertArrayEquals(f.modulusWords(), words(s, "q"), name + " q");
        assertArrayEquals(f.fromLong(1), words(s, "one"), name + " one");
        BigInteger r = BigInteger.ONE.shiftLeft(64 * n);
        assertArrayEquals(PrimeField.words(r.multiply(r).mod(f.modulus()), n), words(s, "r2"), name + " r2");
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void constantsAreTheJavaOnes(PairingCurve c) throws IOException {
        String text = Files.readString(HEADER);
        String prefix = c == PairingCurve.BN254 ? "bn254" : "bls12381";
        checkField(text, prefix + "_fr_params", c.fr());
        checkField(text, prefix + "_fp_params", c.fp());
        assertArrayEquals(c.g1().b(), words(struct(text, prefix + "_fp_params"), "g1_b"), prefix + " G1 b");
    }
}
