package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** ChaCha words, sampled elements and points, and the point encodings, against ffjavascript 0.3.1. */
class ChaChaSamplerTest {

    private static final String SCRIPT = """
            const {buildBn128, buildBls12381, ChaCha} = require("ffjavascript");
            const hex = b => Buffer.from(b).toString("hex");
            (async () => {
              const out = {};
              for (const [name, build] of [["bn128", buildBn128], ["bls12381", buildBls12381]]) {
                const c = await build(true);
                const rng = new ChaCha([1, 2, 3, 4, 5, 6, 7, 8]);
                const words = [rng.nextU32(), rng.nextU32()];
                const fr = c.Fr.fromRng(rng);
                const g1 = c.G1.toAffine(c.G1.fromRng(rng));
                const g2 = c.G2.toAffine(c.G2.fromRng(rng));
                const c1 = new Uint8Array(c.G1.F.n8); c.G1.toRprCompressed(c1, 0, g1);
                const c2 = new Uint8Array(c.G2.F.n8); c.G2.toRprCompressed(c2, 0, g2);
                out[name] = {words, fr: hex(fr), g1: hex(g1), g2: hex(g2), g1u: hex(c.G1.toUncompressed(g1)),
                  g2u: hex(c.G2.toUncompressed(g2)), g1c: hex(c1), g2c: hex(c2)};
              }
              console.log(JSON.stringify(out));
              process.exit(0);
            })();
            """;

    private static JsonNode expected;

    @BeforeAll
    static void reference() {
        expected = Node.evalJson(SCRIPT);
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void samplesWhatFfjavascriptSamples(PairingCurve curve) {
        JsonNode e = expected.get(curve.snarkjsName());
        ChaChaStream rng = new ChaChaStream(new int[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertEquals(e.get("words").get(0).asLong(), rng.nextU32());
        assertEquals(e.get("words").get(1).asLong(), rng.nextU32());
        long[] fr = ChaChaSampler.element(curve.fr(), rng);
        byte[] frBytes = new byte[32];
        curve.fr().toMontgomeryBytesLE(fr, 0, frBytes, 0);
        assertEquals(e.get("fr").asText(), hex(frBytes));
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        long[] p1 = ChaChaSampler.g1(curve, rng);
        long[] p2 = ChaChaSampler.g2(curve, rng);
        byte[] b1 = new byte[g1.size()];
        g1.stored(p1, 0, b1, 0);
        assertEquals(e.get("g1").asText(), hex(b1));
        byte[] b2 = new byte[g2.size()];
        g2.stored(p2, 0, b2, 0);
        assertEquals(e.get("g2").asText(), hex(b2));
        assertEquals(e.get("g1u").asText(), hex(g1.uncompressed(p1, 0)));
        assertEquals(e.get("g2u").asText(), hex(g2.uncompressed(p2, 0)));
        byte[] c1 = new byte[g1.compressedSize()];
        g1.compressed(p1, 0, c1, 0);
        assertEquals(e.get("g1c").asText(), hex(c1));
        byte[] c2 = new byte[g2.compressedSize()];
        g2.compressed(p2, 0, c2, 0);
        assertEquals(e.get("g2c").asText(), hex(c2));
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
