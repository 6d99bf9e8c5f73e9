package dev.proofline.groth16.solidity;

import dev.proofline.algebra.encoding.SnarkjsJsonCodec;
import dev.proofline.groth16.Proof;
import java.math.BigInteger;
import java.util.List;
import java.util.StringJoiner;

/**
 * A proof and its public signals as the arguments of a Solidity verifier's
 * {@code verifyProof(uint[2] a, uint[2][2] b, uint[2] c, uint[n] signals)}, in the text
 * {@code snarkjs zkey export soliditycalldata} prints (and so the same bytes):
 * {@code ["0x<a.x>", "0x<a.y>"],[["0x<b.x.im>", "0x<b.x.re>"],["0x<b.y.im>", "0x<b.y.re>"]],["0x<c.x>",
 * "0x<c.y>"],["0x<s1>",...]}, each number 64 lower-case hex digits or more. G2 coordinates come
 * imaginary part first, the order Ethereum's pairing precompile (EIP-197) reads them in.
 */
public final class SolidityCalldata {

    private SolidityCalldata() {
    }

    /** The calldata text of {@code proof} with {@code publicSignals}, without a line end. */
    public static String of(Proof proof, List<BigInteger> publicSignals) {
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(proof.curve().g1Group());
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(proof.curve().g2Group());
        List<String> a = g1.encodeG1(proof.a(), 0);
        List<List<String>> b = g2.encodeG2(proof.b(), 0);
        List<String> c = g1.encodeG1(proof.c(), 0);
        StringJoiner signals = new StringJoiner(",", "[", "]");
        publicSignals.forEach(s -> signals.add(word(s)));
        return "[" + word(a.get(0)) + ", " + word(a.get(1)) + "],"
                + "[[" + word(b.get(0).get(1)) + ", " + word(b.get(0).get(0)) + "],"
                + "[" + word(b.get(1).get(1)) + ", " + word(b.get(1).get(0)) + "]],"
                + "[" + word(c.get(0)) + ", " + word(c.get(1)) + "],"
                + signals;
    }

    private static String word(String decimal) {
        return word(new BigInteger(decimal));
    }

    /** A number as a quoted hex literal of at least 64 digits (a 256-bit EVM word; more for a larger number). */
    static String word(BigInteger n) {
        String hex = n.toString(16);
        return "\"0x" + "0".repeat(Math.max(0, 64 - hex.length())) + hex + "\"";
    }
}
