package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proofline.algebra.testing.Node;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * BLAKE2b-512 and its stored state against the library snarkjs 0.7.6 uses (@noble/hashes, with
 * snarkjs's own toPartialHash / fromPartialHash): digests of inputs around the block size, given in
 * pieces, and a state written by one side (byte for byte, the bytes that earlier blocks left in the
 * buffer past the buffered ones included) and finished by the other.
 */
class Blake2bTest {

    /** Input byte i is i * 7 mod 251; updates in pieces of the given sizes. */
    private static final int[][] PIECES = {{}, {3}, {64}, {128}, {129}, {64, 64}, {100, 28, 1}, {128, 128, 5},
        {1000, 24, 4000}};

    private static byte[] input(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 % 251);
        }
        return b;
    }

    @Test
    void digestsAndStatesMatchSnarkjs() {
        JsonNode e = Node.evalJson(script());
        for (int t = 0; t < PIECES.length; t++) {
            Blake2b h = new Blake2b();
            int total = 0;
            for (int p : PIECES[t]) {
                total += p;
            }
            byte[] in = input(total);
            int at = 0;
            for (int p : PIECES[t]) {
                h.update(in, at, p);
                at += p;
            }
            JsonNode c = e.get(t);
            assertEquals(c.get("state").asText(), hex(h.state()), "state after " + total + " bytes");
            byte[] key = input(33);
            Blake2b resumed = Blake2b.fromState(HexFormat.of().parseHex(c.get("state").asText()));
            resumed.update(key);
            assertEquals(c.get("resumed").asText(), hex(resumed.digest()), "resumed after " + total + " bytes");
            assertEquals(c.get("digest").asText(), hex(h.digest()), "digest of " + total + " bytes");
        }
    }

    private static String script() {
        StringBuilder pieces = new StringBuilder("[");
        for (int[] p : PIECES) {
            pieces.append(java.util.Arrays.toString(p)).append(',');
        }
        pieces.append(']');
        return """
                (async () => {
                  const { blake2b } = await import("@noble/hashes/blake2b");
                  const { toPartialHash, fromPartialHash } = await import(require("url").pathToFileURL(require("path").resolve("node_modules/snarkjs/src/misc.js")).href);
                  const hex = b => Buffer.from(b).toString("hex");
                  const input = n => Uint8Array.from({length: n}, (_, i) => i * 7 % 251);
                  const out = [];
                  for (const pieces of PIECES) {
                    const total = pieces.reduce((a, b) => a + b, 0);
                    const data = input(total);
                    const h = blake2b.create({ dkLen: 64 });
                    let at = 0;
                    for (const p of pieces) { h.update(data.slice(at, at + p)); at += p; }
                    const state = toPartialHash(h);
                    const resumed = fromPartialHash(state).update(input(33)).digest();
                    out.push({ state: hex(state), resumed: hex(resumed), digest: hex(h.digest()) });
                  }
                  console.log(JSON.stringify(out));
                })();
                """.replace("PIECES", pieces.toString());
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
