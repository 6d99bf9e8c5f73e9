package dev.proofline.r1cs.gadgets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** SHA-256 in a circuit against java.security.MessageDigest. */
class Sha256Test {

    private static byte[] sha256(byte[] m) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(m);
    }

    /**
     * Private message bits, the digest in-circuit, and the digest exposed as two public inputs of
     * 128 bits each (the expected digest, possibly wrong) equated with the packed digest bits.
     */
    private static Circuit circuit(byte[] message, byte[] expected, byte[][] digestOut) {
        return cs -> {
            Bit[] digest = Sha256.hashBytes(cs, message);
            assertEquals(256, digest.length);
            if (cs.needsValues()) {
                digestOut[0] = Sha256.toBytes(digest);
            }
            exposeDigest(cs, digest, expected);
        };
    }

    private static void exposeDigest(ConstraintSystem cs, Bit[] digest, byte[] expected) {
        for (int half = 0; half < 2; half++) {
            // bits of this half, least significant first (the last bit of the half is bit 0)
            Bit[] le = new Bit[128];
            for (int i = 0; i < 128; i++) {
                le[i] = digest[128 * half + 127 - i];
            }
            BigInteger want = new BigInteger(1, Arrays.copyOfRange(expected, 16 * half, 16 * half + 16));
            Num pub = Num.allocInput(cs, "digest " + half, want);
            Num.enforceEqual(cs, "digest " + half, Num.fromBitsLe(cs, le), pub);
        }
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void digestsEqualMessageDigestsAndWrongDigestsFail(PairingCurve curve) throws Exception {
        Random rnd = new Random(256);
        for (int len : new int[] {0, 1, 55, 56, 64, 100}) {
            byte[] m = new byte[len];
            rnd.nextBytes(m);
            byte[] want = sha256(m);
            byte[][] got = new byte[1][];
            Harness.Run run = Harness.satisfied(curve, circuit(m, want, got));
            assertArrayEquals(want, got[0], len + " bytes");
            int blocks = (len + 9 + 63) / 64;
            int own = run.constraints() - 8 * len - 2;
            Harness.report("SHA-256, " + len + "-byte message (" + blocks + " block" + (blocks > 1 ? "s" : "") + ")",
                    curve, own);
            assertTrue(own < 27_000 * blocks, own + " constraints");
            Harness.tamperingIsDetected(run, 25, len, 8 * len);
            byte[] wrong = want.clone();
            wrong[len % 32] ^= 1;
            Harness.unsatisfied(curve, circuit(m, wrong, new byte[1][]));
            if (len > 0) {
                // a different message does not hash to the digest
                byte[] other = m.clone();
                other[0] ^= (byte) 0x80;
                Harness.unsatisfied(curve, circuit(other, want, new byte[1][]));
            }
        }
    }

    /** One compression with a variable chaining state and block: the cost of a block in general. */
    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void compressionWithAVariableState(PairingCurve curve) throws Exception {
        // state = SHA-256 state after a first block; check the second block's compression against
        // the digest of the two-block message
        Random rnd = new Random(1);
        byte[] m = new byte[100];
        rnd.nextBytes(m);
        byte[] want = sha256(m);
        int[] mid = midState(Arrays.copyOf(m, 64));
        Bit[] padded = Sha256.pad(Sha256.constantBits(m));
        int[] cost = new int[1];
        Circuit c = cs -> {
            UInt32[] state = new UInt32[8];
            for (int i = 0; i < 8; i++) {
                state[i] = UInt32.alloc(cs, "state", mid[i]);
            }
            Bit[] block = new Bit[512];
            for (int i = 0; i < 512; i++) {
                block[i] = Bit.alloc(cs, "block", padded[512 + i].value());
            }
            int before = cs instanceof RecordingSystem r ? r.constraintCount() : 0;
            UInt32[] out = Sha256.compress(cs, state, block, 0);
            if (cs instanceof RecordingSystem r) {
                cost[0] = r.constraintCount() - before;
            }
            Bit[] digest = new Bit[256];
            for (int i = 0; i < 8; i++) {
                out[i].bitsBe(digest, 32 * i);
            }
            exposeDigest(cs, digest, want);
        };
        Harness.Run run = Harness.satisfied(curve, c);
        Harness.tamperingIsDetected(run, 25, 2, 256 + 512);
        Harness.report("SHA-256 compression, variable state and block", curve, cost[0]);
        assertTrue(cost[0] < 27_000);
    }

    /** The chaining state after compressing one 64-byte block from the IV (reference code). */
    static int[] midState(byte[] block) {
        int[] k = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
        };
        int[] h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
        int[] w = new int[64];
        for (int i = 0; i < 16; i++) {
            w[i] = ((block[4 * i] & 0xff) << 24) | ((block[4 * i + 1] & 0xff) << 16) | ((block[4 * i + 2] & 0xff) << 8)
                    | (block[4 * i + 3] & 0xff);
        }
        for (int i = 16; i < 64; i++) {
            int s0 = Integer.rotateRight(w[i - 15], 7) ^ Integer.rotateRight(w[i - 15], 18) ^ (w[i - 15] >>> 3);
            int s1 = Integer.rotateRight(w[i - 2], 17) ^ Integer.rotateRight(w[i - 2], 19) ^ (w[i - 2] >>> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        int a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; i++) {
            int t1 = hh + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25))
                    + ((e & f) ^ (~e & g)) + k[i] + w[i];
            int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22))
                    + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        return new int[] {h[0] + a, h[1] + b, h[2] + c, h[3] + d, h[4] + e, h[5] + f, h[6] + g, h[7] + hh};
    }
}
