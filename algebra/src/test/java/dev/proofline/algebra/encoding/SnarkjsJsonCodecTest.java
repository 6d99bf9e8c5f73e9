package dev.proofline.algebra.encoding;

import static dev.proofline.algebra.encoding.SnarkjsBinaryCodecTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proofline.algebra.testing.Node;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** snarkjs's decimal JSON points, against what ffjavascript itself prints. */
class SnarkjsJsonCodecTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * For both curves and groups, k G as snarkjs writes a proof point (groth16_prove.js:
     * stringifyBigInts(G.toObject(G.toAffine(P)))) and the same point as ffjavascript's Jacobian
     * toObject (Z != 1), from G.timesScalar.
     */
    private static final String SCRIPT = """
            const { buildBn128, buildBls12381, utils } = require("ffjavascript");
            (async () => {
              const out = {};
              for (const name of ["bn128", "bls12381"]) {
                const c = name === "bn128" ? await buildBn128(true) : await buildBls12381(true);
                const ks = [0n, 1n, 2n, 5n, c.r - 1n, 123456789012345678901234567890123456789n];
                out[name] = {};
                for (const gname of ["G1", "G2"]) {
                  const G = c[gname];
                  out[name][gname] = ks.map((k) => {
                    const P = k === 0n ? G.zero : G.timesScalar(G.g, k);
                    return { k: k.toString(),
                             affine: utils.stringifyBigInts(G.toObject(G.toAffine(P))),
                             jacobian: utils.stringifyBigInts(G.toObject(P)) };
                  });
                }
                await c.terminate();
              }
              process.stdout.write(JSON.stringify(out));
            })();
            """;

    private static JsonNode reference;

    @BeforeAll
    static void runFfjavascript() {
        reference = Node.evalJson(SCRIPT);
    }

    private static JsonNode cases(CurveGroup g) {
        return reference.get(g.name().startsWith("BN254") ? "bn128" : "bls12381").get(g.label());
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void encodesExactlyTheStringsSnarkjsWrites(CurveGroup g) throws Exception {
        SnarkjsJsonCodec codec = SnarkjsJsonCodec.of(g);
        int n = 0;
        for (JsonNode c : cases(g)) {
            long[] p = TestPoints.multipleOfGenerator(g.curve(), new BigInteger(c.get("k").asText()));
            Object ours = g.isG2() ? codec.encodeG2(p, 0) : codec.encodeG1(p, 0);
            assertEquals(c.get("affine"), JSON.valueToTree(ours), g + " k=" + c.get("k"));
            n++;
        }
        assertEquals(6, n);
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void decodesFfjavascriptAffineAndJacobianForms(CurveGroup g) {
        SnarkjsJsonCodec codec = SnarkjsJsonCodec.of(g);
        boolean sawJacobian = false;
        for (JsonNode c : cases(g)) {
            long[] want = TestPoints.multipleOfGenerator(g.curve(), new BigInteger(c.get("k").asText()));
            assertArrayEquals(want, decode(codec, c.get("affine")), g + " affine k=" + c.get("k"));
            assertArrayEquals(want, decode(codec, c.get("jacobian")), g + " jacobian k=" + c.get("k"));
            JsonNode z = c.get("jacobian").get(2);
            sawJacobian |= !(g.isG2() ? z.get(0).asText() : z.asText()).matches("[01]");
        }
        assertTrue(sawJacobian, "the vectors include Z other than 0 and 1");
    }

    @Property(tries = 60)
    void roundTrips(@ForAll CurveGroup g,
            @ForAll @BigRange(min = "0", max = "200000000000000000000000000000000000000000000000000000000000000000000000000000") BigInteger k) {
        SnarkjsJsonCodec codec = SnarkjsJsonCodec.of(g);
        long[] p = TestPoints.multipleOfGenerator(g.curve(), k);
        long[] back = g.isG2() ? codec.decodeG2(codec.encodeG2(p, 0)) : codec.decodeG1(codec.encodeG1(p, 0));
        assertArrayEquals(p, back);
    }

    @Test
    void infinityFormsAreThoseOfFfjavascript() {
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(CurveGroup.BN254_G1);
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(CurveGroup.BLS12_381_G2);
        assertEquals(List.of("0", "1", "0"), g1.encodeG1(new long[8], 0));
        assertEquals(List.of(List.of("0", "0"), List.of("1", "0"), List.of("0", "0")), g2.encodeG2(new long[24], 0));
        // Z = 0 is infinity whatever X and Y; (0, 0) with Z = 1 is ffjavascript's affine zero
        assertArrayEquals(new long[8], g1.decodeG1(List.of("5", "7", "0")));
        assertArrayEquals(new long[8], g1.decodeG1(List.of("0", "0", "1")));
        assertArrayEquals(new long[8], g1.decodeG1(List.of("0", "0")));
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void acceptsTheTwoCoordinateForm(CurveGroup g) {
        SnarkjsJsonCodec codec = SnarkjsJsonCodec.of(g);
        long[] p = TestPoints.multipleOfGenerator(g.curve(), BigInteger.valueOf(77));
        if (g.isG2()) {
            assertArrayEquals(p, codec.decodeG2(codec.encodeG2(p, 0).subList(0, 2)));
        } else {
            assertArrayEquals(p, codec.decodeG1(codec.encodeG1(p, 0).subList(0, 2)));
        }
    }

    @ParameterizedTest
    @EnumSource(CurveGroup.class)
    void rejectsMalformedNonCanonicalOffCurveAndOutsideSubgroup(CurveGroup g) {
        SnarkjsJsonCodec codec = SnarkjsJsonCodec.of(g);
        String p = g.baseField().modulus().toString();
        long[] gen = g.curve().generator();
        String name = g.displayName() + " point";
        if (!g.isG2()) {
            List<String> ok = codec.encodeG1(gen, 0);
            assertMessage(name + ": coordinate x is not a decimal number: \"0x1\"", () -> codec.decodeG1(List.of("0x1", ok.get(1), "1")));
            assertMessage("coordinate y is not a decimal number: \"-2\"", () -> codec.decodeG1(List.of(ok.get(0), "-2", "1")));
            assertMessage(name + ": coordinate x is not below the field modulus", () -> codec.decodeG1(List.of(p, ok.get(1), "1")));
            assertMessage("coordinate z is not below the field modulus", () -> codec.decodeG1(List.of(ok.get(0), ok.get(1), p)));
            assertMessage(name + " is not on the curve", () -> codec.decodeG1(List.of(ok.get(0), "3", "1")));
            assertMessage(name + " is not on the curve", () -> codec.decodeG1(List.of(ok.get(0), "3", "7")));
            assertMessage("expected [x, y] or [x, y, z]", () -> codec.decodeG1(List.of("1")));
            assertThrows(IllegalStateException.class, () -> codec.decodeG2(List.of()));
        } else {
            List<List<String>> ok = codec.encodeG2(gen, 0);
            assertMessage(name + ": coordinate x.c1 is not below the field modulus",
                    () -> codec.decodeG2(List.of(List.of(ok.get(0).get(0), p), ok.get(1), ok.get(2))));
            assertMessage("coordinate y.c0 is not a decimal number",
                    () -> codec.decodeG2(List.of(ok.get(0), List.of("y", "0"), ok.get(2))));
            assertMessage(name + " is not on the curve",
                    () -> codec.decodeG2(List.of(ok.get(0), List.of(ok.get(1).get(0), "1"), ok.get(2))));
            assertMessage("each G2 coordinate must be a pair",
                    () -> codec.decodeG2(List.of(ok.get(0), List.of("1"), ok.get(2))));
            assertThrows(IllegalStateException.class, () -> codec.decodeG1(List.of()));
        }
        long[] q = TestPoints.hashToCurvePoint(g.curve(), "json-outside");
        if (!g.curve().cofactor().equals(BigInteger.ONE)) {
            if (g.isG2()) {
                List<List<String>> enc = codec.encodeG2(q, 0);
                assertMessage(name + " is not in the subgroup of order r", () -> codec.decodeG2(enc));
                assertArrayEquals(q, codec.withoutSubgroupCheck().decodeG2(enc));
            } else {
                List<String> enc = codec.encodeG1(q, 0);
                assertMessage(name + " is not in the subgroup of order r", () -> codec.decodeG1(enc));
                assertArrayEquals(q, codec.withoutSubgroupCheck().decodeG1(enc));
            }
        }
    }

    private static long[] decode(SnarkjsJsonCodec codec, JsonNode n) {
        if (codec.group().isG2()) {
            return codec.decodeG2(JSON.convertValue(n, new com.fasterxml.jackson.core.type.TypeReference<List<List<String>>>() { }));
        }
        return codec.decodeG1(JSON.convertValue(n, new com.fasterxml.jackson.core.type.TypeReference<List<String>>() { }));
    }
}
