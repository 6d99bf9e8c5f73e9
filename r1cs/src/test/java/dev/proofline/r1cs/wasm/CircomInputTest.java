package dev.proofline.r1cs.wasm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.r1cs.io.FormatException;
import dev.proofline.r1cs.wasm.WitnessException.Reason;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** input.json as snarkjs reads it (JavaScript numbers and BigInt strings), without a circuit. */
class CircomInputTest {

    private static List<BigInteger> ints(long... v) {
        return java.util.Arrays.stream(v).mapToObj(BigInteger::valueOf).toList();
    }

    @Test
    void namesInOrderArraysFlattenedBusesQualified() {
        CircomInput in = CircomInput.parse("{\"z\": \"1\", \"a\": [[1, 2], [3, [4]]], \"p\": {\"x\": 5, \"y\": [6, 7]},"
                + " \"q\": [[{\"x\": 8}], [{\"x\": 9}]], \"e\": [], \"z2\": \"0x10\"}", null);
        assertEquals(List.of("z", "a", "p.x", "p.y", "q[0][0].x", "q[1][0].x", "e", "z2"),
                List.copyOf(in.signals().keySet()));
        assertEquals(ints(1), in.signals().get("z"));
        assertEquals(ints(1, 2, 3, 4), in.signals().get("a"));
        assertEquals(ints(6, 7), in.signals().get("p.y"));
        assertEquals(ints(9), in.signals().get("q[1][0].x"));
        assertEquals(List.of(), in.signals().get("e"));
        assertEquals(ints(16), in.signals().get("z2"));
        assertEquals(11, in.valueCount());
    }

    @Test
    void integersAsJavaScriptsBigIntReadsThem() {
        CircomInput in = CircomInput.parse("{\"a\": [\"-12\", \"+12\", \" 7\\n\", \"0X1f\", \"0o17\", \"0b101\", true,"
                + " false, -5, 1e2, 3.0, 18446744073709551616, 9007199254740992e1]}", null);
        // 2^64 and 2^53 * 10 are beyond 2^53 but doubles: JavaScript reads them exactly
        assertEquals(List.of(BigInteger.valueOf(-12), BigInteger.valueOf(12), BigInteger.valueOf(7),
                BigInteger.valueOf(31), BigInteger.valueOf(15), BigInteger.valueOf(5), BigInteger.ONE, BigInteger.ZERO,
                BigInteger.valueOf(-5), BigInteger.valueOf(100), BigInteger.valueOf(3), BigInteger.ONE.shiftLeft(64),
                BigInteger.ONE.shiftLeft(53).multiply(BigInteger.TEN)), in.signals().get("a"));
    }

    @Test
    void valuesSnarkjsWouldMisreadAreRefused() {
        for (String bad : new String[] {"9007199254740993", "\"1.5\"", "\"1e3\"", "\"-0x1\"", "\"0x\"", "\"\"",
            "\"  \"", "\"12 34\"", "\"1_000\"", "0.5", "null", "{}x"}) {
            WitnessException e = assertThrows(WitnessException.class,
                    () -> CircomInput.parse("{\"v\": " + bad + "}", "in.json"), bad);
            assertTrue(e.reason() == Reason.BAD_VALUE || e.reason() == Reason.MALFORMED_INPUT, bad);
        }
        WitnessException e = assertThrows(WitnessException.class,
                () -> CircomInput.parse("{\"v\": 9007199254740993}", "in.json"));
        assertEquals("v", e.signal());
        assertTrue(e.getMessage().contains("round it to 9007199254740992"), e.getMessage());
    }

    @Test
    void javaValues() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", 5);
        m.put("b", List.of("-1", BigInteger.TEN, 3L));
        m.put("c", new int[] {1, 2});
        m.put("d", new Object[] {new long[] {3}, List.of(4)});
        m.put("p", Map.of("x", true));
        CircomInput in = CircomInput.of(m);
        assertEquals(List.of("a", "b", "c", "d", "p.x"), List.copyOf(in.signals().keySet()));
        assertEquals(ints(-1, 10, 3), in.signals().get("b"));
        assertEquals(ints(3, 4), in.signals().get("d"));
        assertEquals(ints(1), in.signals().get("p.x"));
        WitnessException e = assertThrows(WitnessException.class, () -> CircomInput.of(Map.of("f", 1.5)));
        assertEquals("input 'f': a Double is not a number", e.getMessage());
    }

    @Test
    void missingFile() {
        FormatException e = assertThrows(FormatException.class, () -> CircomInput.read(Path.of("no/such/input.json")));
        assertTrue(e.getMessage().endsWith("no such file"), e.getMessage());
    }
}
