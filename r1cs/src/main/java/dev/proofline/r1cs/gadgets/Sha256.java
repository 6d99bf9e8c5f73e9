package dev.proofline.r1cs.gadgets;

import dev.proofline.r1cs.cs.ConstraintSystem;

/**
 * SHA-256 (FIPS 180-4) in a circuit. Messages and digests are bit arrays in SHA-256's order: each
 * byte most significant bit first, bytes in message order. The padding is constant and free. One
 * compression costs about 26.4k constraints with a variable chaining state (fewer for the first
 * block, whose state is the constant IV); see docs/circuits.md.
 */
public final class Sha256 {

    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };

    private static final int[] IV = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };

    private static final UInt32[] K_WORDS = new UInt32[64];
    private static final UInt32[] IV_WORDS = new UInt32[8];

    static {
        for (int i = 0; i < 64; i++) {
            K_WORDS[i] = UInt32.constant(K[i]);
        }
        for (int i = 0; i < 8; i++) {
            IV_WORDS[i] = UInt32.constant(IV[i]);
        }
    }

    private Sha256() {
    }

    /** The initial chaining state (constants). */
    public static UInt32[] iv() {
        return IV_WORDS.clone();
    }

    /** The digest of a message of any bit length: 256 bits. */
    public static Bit[] hash(ConstraintSystem cs, Bit[] message) {
        Bit[] padded = pad(message);
        UInt32[] state = iv();
        int blocks = padded.length / 512;
        for (int b = 0; b < blocks; b++) {
            cs.pushNamespace(blocks == 1 ? "sha256" : "sha256 block " + b);
            try {
                state = compress(cs, state, padded, 512 * b);
            } finally {
                cs.popNamespace();
            }
        }
        Bit[] out = new Bit[256];
        for (int i = 0; i < 8; i++) {
            state[i].bitsBe(out, 32 * i);
        }
        return out;
    }

    /** Allocates {@code message} as private bits (8 constraints a byte) and hashes it. */
    public static Bit[] hashBytes(ConstraintSystem cs, byte[] message) {
        return hash(cs, allocBytes(cs, "message", message));
    }

    /** SHA-256's padding: the message, a 1, zeros, the 64-bit bit length; constant bits. */
    public static Bit[] pad(Bit[] message) {
        long len = message.length;
        int total = (int) ((len + 1 + 64 + 511) / 512 * 512);
        Bit[] p = new Bit[total];
        System.arraycopy(message, 0, p, 0, message.length);
        p[message.length] = Bit.TRUE;
        for (int i = message.length + 1; i < total - 64; i++) {
            p[i] = Bit.FALSE;
        }
        for (int i = 0; i < 64; i++) {
            p[total - 64 + i] = Bit.constant(((len >>> (63 - i)) & 1) != 0);
        }
        return p;
    }

    /**
     * One compression: the chaining state (8 words) and 512 message bits at {@code block[offset..]}
     * give the next state.
     */
    public static UInt32[] compress(ConstraintSystem cs, UInt32[] state, Bit[] block, int offset) {
        if (state.length != 8 || block.length - offset < 512) {
            throw new IllegalArgumentException("a state of 8 words and 512 block bits are needed");
        }
        UInt32[] w = new UInt32[64];
        for (int i = 0; i < 16; i++) {
            w[i] = UInt32.fromBitsBe(block, offset + 32 * i);
        }
        cs.pushNamespace("schedule");
        try {
            for (int i = 16; i < 64; i++) {
                UInt32 x = w[i - 15];
                UInt32 s0 = x.rotr(7).xor(cs, x.rotr(18)).xor(cs, x.shr(3));
                UInt32 y = w[i - 2];
                UInt32 s1 = y.rotr(17).xor(cs, y.rotr(19)).xor(cs, y.shr(10));
                w[i] = UInt32.addMany(cs, w[i - 16], s0, w[i - 7], s1);
            }
        } finally {
            cs.popNamespace();
        }
        UInt32 a = state[0];
        UInt32 b = state[1];
        UInt32 c = state[2];
        UInt32 d = state[3];
        UInt32 e = state[4];
        UInt32 f = state[5];
        UInt32 g = state[6];
        UInt32 h = state[7];
        cs.pushNamespace("rounds");
        try {
            for (int i = 0; i < 64; i++) {
                UInt32 s1 = e.rotr(6).xor(cs, e.rotr(11)).xor(cs, e.rotr(25));
                UInt32 ch = UInt32.ch(cs, e, f, g);
                UInt32 s0 = a.rotr(2).xor(cs, a.rotr(13)).xor(cs, a.rotr(22));
                UInt32 maj = UInt32.maj(cs, a, b, c);
                // temp1 = h + S1 + ch + K + W and temp2 = S0 + maj are never materialized: each new
                // word is one multi-operand sum
                UInt32 newE = UInt32.addMany(cs, d, h, s1, ch, K_WORDS[i], w[i]);
                UInt32 newA = UInt32.addMany(cs, h, s1, ch, K_WORDS[i], w[i], s0, maj);
                h = g;
                g = f;
                f = e;
                e = newE;
                d = c;
                c = b;
                b = a;
                a = newA;
            }
        } finally {
            cs.popNamespace();
        }
        UInt32[] out = {a, b, c, d, e, f, g, h};
        cs.pushNamespace("final");
        try {
            for (int i = 0; i < 8; i++) {
                out[i] = UInt32.addMany(cs, state[i], out[i]);
            }
        } finally {
            cs.popNamespace();
        }
        return out;
    }

    /** Constant bits of {@code bytes}, each byte most significant bit first. */
    public static Bit[] constantBits(byte[] bytes) {
        Bit[] out = new Bit[bytes.length * 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = Bit.constant(((bytes[i >>> 3] >>> (7 - (i & 7))) & 1) != 0);
        }
        return out;
    }

    /** Private bits of {@code bytes}, each byte most significant bit first: one constraint a bit. */
    public static Bit[] allocBytes(ConstraintSystem cs, String name, byte[] bytes) {
        Bit[] out = new Bit[bytes.length * 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = Bit.alloc(cs, name, ((bytes[i >>> 3] >>> (7 - (i & 7))) & 1) != 0);
        }
        return out;
    }

    /** The bytes the bits' values make (8 bits a byte, most significant first). */
    public static byte[] toBytes(Bit[] bits) {
        if (bits.length % 8 != 0) {
            throw new IllegalArgumentException("not a whole number of bytes: " + bits.length + " bits");
        }
        byte[] out = new byte[bits.length / 8];
        for (int i = 0; i < bits.length; i++) {
            if (bits[i].value()) {
                out[i >>> 3] |= (byte) (0x80 >>> (i & 7));
            }
        }
        return out;
    }
}
