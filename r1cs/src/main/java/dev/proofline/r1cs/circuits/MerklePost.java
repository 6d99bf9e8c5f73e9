package dev.proofline.r1cs.circuits;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.gadgets.Bit;
import dev.proofline.r1cs.gadgets.MerklePath;
import dev.proofline.r1cs.gadgets.Num;
import dev.proofline.r1cs.gadgets.Sha256;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * {@code builtin:merkle-post}, a proof-of-storage partition: the prover shows that it holds C
 * challenged leaves of a Poseidon Merkle tree of depth D whose root is public. Public inputs: the
 * root, then each challenge's leaf index. Per challenge: the index decomposed into D bits, D levels
 * of conditional swap and Poseidon(2), and the computed root equal to the public one.
 *
 * <p>With SHA-256 leaves, each challenged leaf is the hash of 32 private data bytes: SHA-256 of the
 * data in the circuit, its first (field bits - 1) digest bits (SHA-256's bit order) packed least
 * significant first into the leaf element.
 *
 * <p>An instance (tree, challenges, leaves, paths) comes from a seed: the challenged leaves and the
 * siblings that no challenged path determines are random field elements, the rest is hashed bottom
 * up, so every path leads to the same root without building the 2^D-leaf tree.
 */
public final class MerklePost implements Circuit {

    /** Default tree depth: 2^30 leaves, a 32 GiB sector of 32-byte nodes. */
    public static final int DEFAULT_DEPTH = 30;

    private final PairingCurve curve;
    private final int depth;
    private final long[] indices;
    private final BigInteger[] leaves;
    private final BigInteger[][] siblings;
    private final BigInteger root;
    /** Per challenge, the 32 data bytes its leaf hashes; null for plain field-element leaves. */
    private final byte[][] leafData;

    private MerklePost(PairingCurve curve, int depth, long[] indices, BigInteger[] leaves, BigInteger[][] siblings,
            BigInteger root, byte[][] leafData) {
        this.leafData = leafData;
        this.curve = curve;
        this.depth = depth;
        this.indices = indices;
        this.leaves = leaves;
        this.siblings = siblings;
        this.root = root;
    }

    /** An instance with {@code challenges} challenges in a tree of depth {@code depth}, from a seed. */
    public static MerklePost instance(PairingCurve curve, int challenges, int depth, long seed) {
        return instance(curve, challenges, depth, false, seed);
    }

    /** As {@link #instance(PairingCurve, int, int, long)}, with SHA-256 leaves when asked. */
    public static MerklePost instance(PairingCurve curve, int challenges, int depth, boolean sha256Leaves, long seed) {
        if (depth < 1 || depth > 62) {
            throw new IllegalArgumentException("depth must be in [1, 62]: " + depth);
        }
        if (challenges < 1) {
            throw new IllegalArgumentException("at least one challenge: " + challenges);
        }
        Random rnd = new Random(seed);
        BigInteger r = curve.fr().modulus();
        long[] indices = new long[challenges];
        BigInteger[] leaves = new BigInteger[challenges];
        byte[][] data = sha256Leaves ? new byte[challenges][] : null;
        Map<Long, BigInteger> level = new HashMap<>();
        Map<Long, byte[]> dataAt = new HashMap<>();
        for (int c = 0; c < challenges; c++) {
            indices[c] = rnd.nextLong() & ((1L << depth) - 1);
            BigInteger leaf = level.get(indices[c]);
            if (leaf == null) {
                if (sha256Leaves) {
                    byte[] d = new byte[32];
                    rnd.nextBytes(d);
                    dataAt.put(indices[c], d);
                    leaf = leafOf(curve, d);
                } else {
                    leaf = new BigInteger(r.bitLength() + 64, rnd).mod(r);
                }
                level.put(indices[c], leaf);
            }
            leaves[c] = leaf;
            if (sha256Leaves) {
                data[c] = dataAt.get(indices[c]);
            }
        }
        BigInteger[][] siblings = new BigInteger[challenges][depth];
        for (int l = 0; l < depth; l++) {
            Map<Long, BigInteger> parents = new HashMap<>();
            // fill the siblings no path determines, in a fixed order (sorted) so the seed decides all
            long[] nodes = level.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
            for (long node : nodes) {
                level.computeIfAbsent(node ^ 1, k -> new BigInteger(r.bitLength() + 64, rnd).mod(r));
            }
            for (int c = 0; c < challenges; c++) {
                siblings[c][l] = level.get((indices[c] >>> l) ^ 1);
            }
            for (long node : nodes) {
                long left = node & ~1L;
                parents.computeIfAbsent(node >>> 1,
                        k -> dev.proofline.r1cs.gadgets.Poseidon.hash(curve, level.get(left), level.get(left | 1)));
            }
            level.clear();
            level.putAll(parents);
        }
        BigInteger root = level.get(0L);
        return new MerklePost(curve, depth, indices, leaves, siblings, root, data);
    }

    /** The leaf of 32 data bytes: the first (field bits - 1) bits of SHA-256(data), least significant first. */
    static BigInteger leafOf(PairingCurve curve, byte[] data) {
        byte[] digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        BigInteger leaf = BigInteger.ZERO;
        for (int i = 0; i < curve.fr().bits() - 1; i++) {
            if (((digest[i >>> 3] >>> (7 - (i & 7))) & 1) != 0) {
                leaf = leaf.setBit(i);
            }
        }
        return leaf;
    }

    /**
     * An instance with enough challenges for at least {@code constraints} constraints (the count per
     * challenge is measured by recording one- and two-challenge circuits).
     */
    public static MerklePost sized(PairingCurve curve, long constraints, int depth, long seed) {
        return sized(curve, constraints, depth, false, seed);
    }

    public static MerklePost sized(PairingCurve curve, long constraints, int depth, boolean sha256Leaves, long seed) {
        int one = RecordingSystem.record(curve, instance(curve, 1, depth, sha256Leaves, seed)).constraintCount();
        int two = RecordingSystem.record(curve, instance(curve, 2, depth, sha256Leaves, seed)).constraintCount();
        int per = two - one;
        long challenges = Math.max(1, (constraints - (one - per) + per - 1) / per);
        return instance(curve, Math.toIntExact(challenges), depth, sha256Leaves, seed);
    }

    public PairingCurve curve() {
        return curve;
    }

    public int challenges() {
        return indices.length;
    }

    public int depth() {
        return depth;
    }

    public BigInteger root() {
        return root;
    }

    @Override
    public void synthesize(ConstraintSystem cs) {
        Num publicRoot = Num.allocInput(cs, "root", root);
        for (int c = 0; c < indices.length; c++) {
            final int ch = c;
            cs.namespace("challenge " + c, () -> {
                Num index = Num.allocInput(cs, "index", BigInteger.valueOf(indices[ch]));
                Bit[] bits = index.toBitsLe(cs, depth);
                Num leaf;
                if (leafData != null) {
                    Bit[] digest = Sha256.hash(cs, Sha256.allocBytes(cs, "data", leafData[ch]));
                    leaf = Num.fromBitsLe(cs, java.util.Arrays.copyOf(digest, cs.field().bits() - 1));
                } else {
                    leaf = Num.alloc(cs, "leaf", leaves[ch]);
                }
                Num[] path = new Num[depth];
                for (int l = 0; l < depth; l++) {
                    path[l] = Num.alloc(cs, "sibling " + l, siblings[ch][l]);
                }
                Num computed = MerklePath.poseidonRoot(cs, leaf, path, bits);
                Num.enforceEqual(cs, "root", computed, publicRoot);
            });
        }
    }
}
