package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.cs.ConstraintSystem;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Merkle-path inclusion: the root recomputed from a leaf, its siblings from the bottom up, and the
 * leaf's index as bits (least significant first, bit i = 1 when the node at level i is a right
 * child). Each level puts the current node and the sibling in order with a conditional swap, then
 * hashes the pair. The caller compares the root with the expected one (for instance
 * {@link Num#enforceEqual} against a public input).
 */
public final class MerklePath {

    private MerklePath() {
    }

    /**
     * The root of a Poseidon(2) tree (node = Poseidon(left, right)): per level one constraint for
     * the swap and 240 for the hash.
     */
    public static Num poseidonRoot(ConstraintSystem cs, Num leaf, Num[] siblings, Bit[] index) {
        check(siblings.length, index.length);
        Num node = leaf;
        for (int level = 0; level < siblings.length; level++) {
            cs.pushNamespace("level " + level);
            try {
                Num[] pair = Num.conditionalSwap(cs, index[level], node, siblings[level]);
                node = Poseidon.hash(cs, pair[0], pair[1]);
            } finally {
                cs.popNamespace();
            }
        }
        return node;
    }

    /** The same root computed natively; bit i of {@code index} is the level-i direction. */
    public static BigInteger poseidonRoot(PairingCurve curve, BigInteger leaf, BigInteger[] siblings, long index) {
        BigInteger node = leaf;
        for (int level = 0; level < siblings.length; level++) {
            node = ((index >>> level) & 1) == 0
                    ? Poseidon.hash(curve, node, siblings[level])
                    : Poseidon.hash(curve, siblings[level], node);
        }
        return node;
    }

    /**
     * The root of a SHA-256 tree over 256-bit nodes (node = SHA-256(left || right), a 64-byte
     * message: two compressions, the second over the constant padding block): per level 512
     * constraints for the swap (two selections a bit) and about 45.6k for the hash. For a leaf that
     * is data rather than a digest, hash it first with {@link Sha256#hash}.
     */
    public static Bit[] sha256Root(ConstraintSystem cs, Bit[] leaf, Bit[][] siblings, Bit[] index) {
        check(siblings.length, index.length);
        if (leaf.length != 256) {
            throw new IllegalArgumentException("a SHA-256 node has 256 bits: " + leaf.length);
        }
        Bit[] node = leaf;
        for (int level = 0; level < siblings.length; level++) {
            Bit[] sib = siblings[level];
            if (sib.length != 256) {
                throw new IllegalArgumentException("sibling " + level + " has " + sib.length + " bits, not 256");
            }
            cs.pushNamespace("level " + level);
            try {
                Bit s = index[level];
                Bit[] pair = new Bit[512];
                for (int i = 0; i < 256; i++) {
                    pair[i] = Bit.ch(cs, s, sib[i], node[i]);
                    pair[256 + i] = Bit.ch(cs, s, node[i], sib[i]);
                }
                node = Sha256.hash(cs, pair);
            } finally {
                cs.popNamespace();
            }
        }
        return node;
    }

    /** The same root computed natively. */
    public static byte[] sha256Root(byte[] leaf, byte[][] siblings, long index) {
        try {
            byte[] node = leaf.clone();
            for (int level = 0; level < siblings.length; level++) {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                boolean right = ((index >>> level) & 1) != 0;
                md.update(right ? siblings[level] : node);
                md.update(right ? node : siblings[level]);
                node = md.digest();
            }
            return node;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void check(int siblings, int indexBits) {
        if (siblings != indexBits) {
            throw new IllegalArgumentException(siblings + " siblings but " + indexBits + " index bits");
        }
    }
}
