package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Merkle paths in circuits against roots computed natively (Poseidon, MessageDigest). */
class MerklePathTest {

    private static Bit[] indexBits(ConstraintSystem cs, long index, int depth) {
        Bit[] bits = new Bit[depth];
        for (int i = 0; i < depth; i++) {
            bits[i] = Bit.alloc(cs, "index", ((index >>> i) & 1) != 0);
        }
        return bits;
    }

    /** Private leaf, siblings and index; the root a public input. */
    private static Circuit poseidonCircuit(BigInteger leaf, BigInteger[] siblings, long index, BigInteger root,
            BigInteger[] got, int[] cost) {
        return cs -> {
            Num l = Num.alloc(cs, "leaf", leaf);
            Num[] s = new Num[siblings.length];
            for (int i = 0; i < s.length; i++) {
                s[i] = Num.alloc(cs, "sibling", siblings[i]);
            }
            Bit[] idx = indexBits(cs, index, siblings.length);
            int before = cs instanceof RecordingSystem r ? r.constraintCount() : 0;
            Num computed = MerklePath.poseidonRoot(cs, l, s, idx);
            if (cs instanceof RecordingSystem r && cost != null) {
                cost[0] = r.constraintCount() - before;
            }
            if (cs.needsValues() && got != null) {
                got[0] = computed.toBigInteger(cs);
            }
            Num.enforceEqual(cs, "root", computed, Num.allocInput(cs, "root", root));
        };
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void poseidonPathsRecomputeTheRoot(PairingCurve curve) {
        PrimeField fr = curve.fr();
        Random rnd = new Random(20 + curve.ordinal());
        int depth = 8;
        for (long index : new long[] {0, 255, 0b10110010, rnd.nextInt(256)}) {
            BigInteger leaf = new BigInteger(fr.bits() - 1, rnd);
            BigInteger[] siblings = new BigInteger[depth];
            for (int i = 0; i < depth; i++) {
                siblings[i] = new BigInteger(fr.bits() - 1, rnd);
            }
            BigInteger root = MerklePath.poseidonRoot(curve, leaf, siblings, index);
            BigInteger[] got = new BigInteger[1];
            int[] cost = new int[1];
            Harness.Run run = Harness.satisfied(curve, poseidonCircuit(leaf, siblings, index, root, got, cost));
            assertEquals(root, got[0]);
            assertEquals(depth * 241, cost[0]);
            Harness.tamperingIsDetected(run, 30, index, 1 + depth + depth);
            // wrong leaf, sibling, index or root
            Harness.unsatisfied(curve, poseidonCircuit(leaf.add(BigInteger.ONE), siblings, index, root, null, null));
            BigInteger[] other = siblings.clone();
            other[depth / 2] = other[depth / 2].add(BigInteger.ONE);
            Harness.unsatisfied(curve, poseidonCircuit(leaf, other, index, root, null, null));
            Harness.unsatisfied(curve, poseidonCircuit(leaf, siblings, index ^ 4, root, null, null));
            Harness.unsatisfied(curve, poseidonCircuit(leaf, siblings, index, root.add(BigInteger.ONE), null, null));
        }
        Harness.report("MerklePath.poseidonRoot, per level", curve, 241);
    }

    /** The native Poseidon root of a tiny tree built level by level agrees with the path form. */
    @Test
    void nativePoseidonRootOfAFullTree() {
        PairingCurve curve = PairingCurve.BN254;
        BigInteger[] leaves = new BigInteger[8];
        for (int i = 0; i < 8; i++) {
            leaves[i] = BigInteger.valueOf(100 + i);
        }
        BigInteger[] level = leaves;
        BigInteger[][] levels = new BigInteger[4][];
        levels[0] = leaves;
        for (int d = 1; d <= 3; d++) {
            BigInteger[] next = new BigInteger[level.length / 2];
            for (int i = 0; i < next.length; i++) {
                next[i] = Poseidon.hash(curve, level[2 * i], level[2 * i + 1]);
            }
            levels[d] = next;
            level = next;
        }
        for (int index = 0; index < 8; index++) {
            BigInteger[] siblings = new BigInteger[3];
            for (int d = 0; d < 3; d++) {
                siblings[d] = levels[d][(index >>> d) ^ 1];
            }
            assertEquals(level[0], MerklePath.poseidonRoot(curve, leaves[index], siblings, index));
        }
    }

    private static Bit[] digestBits(ConstraintSystem cs, byte[] d) {
        return Sha256.allocBytes(cs, "digest", d);
    }

    private static Circuit shaCircuit(byte[] leaf, byte[][] siblings, long index, byte[] root, byte[][] got, int[] cost) {
        return cs -> {
            Bit[] l = digestBits(cs, leaf);
            Bit[][] s = new Bit[siblings.length][];
            for (int i = 0; i < s.length; i++) {
                s[i] = digestBits(cs, siblings[i]);
            }
            Bit[] idx = indexBits(cs, index, siblings.length);
            int before = cs instanceof RecordingSystem r ? r.constraintCount() : 0;
            Bit[] computed = MerklePath.sha256Root(cs, l, s, idx);
            if (cs instanceof RecordingSystem r && cost != null) {
                cost[0] = r.constraintCount() - before;
            }
            if (cs.needsValues() && got != null) {
                got[0] = Sha256.toBytes(computed);
            }
            for (int i = 0; i < 256; i++) {
                Bit.enforceEqual(cs, "root", computed[i], Bit.constant(((root[i >>> 3] >>> (7 - (i & 7))) & 1) != 0));
            }
        };
    }

    @Test
    void sha256PathsRecomputeTheRoot() throws Exception {
        PairingCurve curve = PairingCurve.BN254;
        Random rnd = new Random(5);
        byte[] data = "a leaf".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] leaf = MessageDigest.getInstance("SHA-256").digest(data);
        byte[][] siblings = new byte[2][32];
        for (byte[] s : siblings) {
            rnd.nextBytes(s);
        }
        for (long index : new long[] {1, 2}) {
            byte[] root = MerklePath.sha256Root(leaf, siblings, index);
            byte[][] got = new byte[1][];
            int[] cost = new int[1];
            Harness.Run run = Harness.satisfied(curve, shaCircuit(leaf, siblings, index, root, got, cost));
            assertArrayEquals(root, got[0]);
            Harness.report("MerklePath.sha256Root, per level", curve, cost[0] / 2);
            Harness.tamperingIsDetected(run, 10, index, 256 * 3 + 2);
            byte[] wrongRoot = root.clone();
            wrongRoot[31] ^= 1;
            Harness.unsatisfied(curve, shaCircuit(leaf, siblings, index, wrongRoot, null, null));
            Harness.unsatisfied(curve, shaCircuit(leaf, siblings, index ^ 1, root, null, null));
        }
        // the leaf as data hashed in the circuit, then the path
        byte[] root = MerklePath.sha256Root(leaf, siblings, 3);
        Harness.satisfied(curve, cs -> {
            Bit[] l = Sha256.hashBytes(cs, data);
            Bit[][] s = {digestBits(cs, siblings[0]), digestBits(cs, siblings[1])};
            Bit[] computed = MerklePath.sha256Root(cs, l, s, indexBits(cs, 3, 2));
            if (cs.needsValues()) {
                assertArrayEquals(root, Sha256.toBytes(computed));
            }
        });
    }
}
