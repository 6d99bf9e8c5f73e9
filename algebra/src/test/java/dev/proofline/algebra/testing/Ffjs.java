package dev.proofline.algebra.testing;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reference values from ffjavascript, the arithmetic library of snarkjs, computed by
 * {@code interop/ffjs/vectors.cjs} under Node.js. The fixture needs {@code npm ci} in {@code interop/}
 * (the build's test command does it); without it the test fails and says so.
 */
public final class Ffjs {

    private Ffjs() {
    }

    /**
     * Runs {@code node interop/ffjs/vectors.cjs curve kind seed [n]} and parses its JSON output.
     *
     * @param curve "bn128" or "bls12381"
     */
    public static JsonNode vectors(String curve, String kind, long seed, Integer n) {
        return n == null
                ? Node.scriptJson("ffjs/vectors.cjs", curve, kind, Long.toString(seed))
                : Node.scriptJson("ffjs/vectors.cjs", curve, kind, Long.toString(seed), n.toString());
    }
}
