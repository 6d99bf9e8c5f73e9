package dev.proofline.groth16.ceremony;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * BLAKE2b-512 (RFC 7693), unkeyed, whose running state can be written out and read back. A .ptau
 * contribution stores the state of its response hash just before the contributor's public key was
 * hashed (216 bytes), so that a verifier can finish that hash from the key alone; no library we use
 * exposes the state, hence this class.
 *
 * <p>The stored layout is the one snarkjs 0.7 writes (its {@code toPartialHash}, over the fields of
 * the noble-hashes BLAKE2b object): the 128-byte block buffer, then as little-endian u32s the eight
 * chaining words (low half then high half of each), the number of bytes compressed so far (low, high)
 * and the number of bytes waiting in the buffer (low, high), then 8 zero bytes. Like that
 * implementation, the last block is kept in the buffer until more data arrives, because only the
 * final block is compressed with the last-block flag.
 */
public final class Blake2b {

    /** Bytes of a digest. */
    public static final int DIGEST_BYTES = 64;
    /** Bytes of a stored state. */
    public static final int STATE_BYTES = 216;

    private static final int BLOCK = 128;
    private static final long[] IV = {
        0x6a09e667f3bcc908L, 0xbb67ae8584caa73bL, 0x3c6ef372fe94f82bL, 0xa54ff53a5f1d36f1L,
        0x510e527fade682d1L, 0x9b05688c2b3e6c1fL, 0x1f83d9abfb41bd6bL, 0x5be0cd19137e2179L,
    };
    private static final byte[][] SIGMA = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    };

    private final long[] h = new long[8];
    private final byte[] buffer = new byte[BLOCK];
    private final long[] m = new long[16];
    private final long[] v = new long[16];
    private long compressed;   // bytes already compressed
    private int pos;           // bytes waiting in the buffer, 0..128

    public Blake2b() {
        System.arraycopy(IV, 0, h, 0, 8);
        h[0] ^= 0x01010000L ^ DIGEST_BYTES;
    }

    /** BLAKE2b-512 of the concatenation of the arguments. */
    public static byte[] hash(byte[]... parts) {
        Blake2b b = new Blake2b();
        for (byte[] p : parts) {
            b.update(p);
        }
        return b.digest();
    }

    /** A hash that continues from a state written by {@link #state()}. */
    public static Blake2b fromState(byte[] state) {
        if (state.length != STATE_BYTES) {
            throw new IllegalArgumentException("a BLAKE2b state is " + STATE_BYTES + " bytes, not " + state.length);
        }
        ByteBuffer b = ByteBuffer.wrap(state).order(ByteOrder.LITTLE_ENDIAN);
        Blake2b r = new Blake2b();
        b.get(r.buffer);
        for (int i = 0; i < 8; i++) {
            r.h[i] = Integer.toUnsignedLong(b.getInt()) | (long) b.getInt() << 32;
        }
        r.compressed = b.getLong();
        long pending = b.getLong();
        if (pending < 0 || pending > BLOCK || r.compressed < 0 || r.compressed % BLOCK != 0
                || (pending == 0 && r.compressed != 0)) {
            throw new IllegalArgumentException("not a BLAKE2b state: " + r.compressed + " bytes compressed, "
                    + pending + " in the buffer");
        }
        r.pos = (int) pending;
        return r;
    }

    public Blake2b update(byte[] data) {
        return update(data, 0, data.length);
    }

    public Blake2b update(byte[] data, int off, int len) {
        while (len > 0) {
            if (pos == BLOCK) {
                compressed += BLOCK;
                compress(buffer, 0, false);
                pos = 0;
            }
            int take = Math.min(BLOCK - pos, len);
            if (take == BLOCK && take < len) {
                // whole blocks straight from the input, all but its last, as noble-hashes does (for input
                // at a 4-byte offset, as every caller's is): the buffer keeps what it held, which a stored
                // state shows
                while (len > BLOCK) {
                    compressed += BLOCK;
                    compress(data, off, false);
                    off += BLOCK;
                    len -= BLOCK;
                }
                continue;
            }
            System.arraycopy(data, off, buffer, pos, take);
            pos += take;
            off += take;
            len -= take;
        }
        return this;
    }

    /** The state as snarkjs stores it (see the class comment); this hash is unchanged. */
    public byte[] state() {
        ByteBuffer b = ByteBuffer.allocate(STATE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(buffer);   // past pos: what earlier blocks left there, as in snarkjs's stored states
        for (int i = 0; i < 8; i++) {
            b.putInt((int) h[i]).putInt((int) (h[i] >>> 32));
        }
        b.putLong(compressed).putLong(pos).putLong(0);
        return b.array();
    }

    /** The 64-byte digest; this object is spent afterwards. */
    public byte[] digest() {
        Arrays.fill(buffer, pos, BLOCK, (byte) 0);
        compressed += pos;
        compress(buffer, 0, true);
        ByteBuffer out = ByteBuffer.allocate(DIGEST_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : h) {
            out.putLong(w);
        }
        return out.array();
    }

    private void compress(byte[] block, int off, boolean last) {
        ByteBuffer b = ByteBuffer.wrap(block, off, BLOCK).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 16; i++) {
            m[i] = b.getLong();
        }
        System.arraycopy(h, 0, v, 0, 8);
        System.arraycopy(IV, 0, v, 8, 8);
        v[12] ^= compressed;       // the counter's high word stays 0 below 2^64 bytes
        if (last) {
            v[14] = ~v[14];
        }
        for (int round = 0; round < 12; round++) {
            byte[] s = SIGMA[round % 10];
            mix(0, 4, 8, 12, m[s[0]], m[s[1]]);
            mix(1, 5, 9, 13, m[s[2]], m[s[3]]);
            mix(2, 6, 10, 14, m[s[4]], m[s[5]]);
            mix(3, 7, 11, 15, m[s[6]], m[s[7]]);
            mix(0, 5, 10, 15, m[s[8]], m[s[9]]);
            mix(1, 6, 11, 12, m[s[10]], m[s[11]]);
            mix(2, 7, 8, 13, m[s[12]], m[s[13]]);
            mix(3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for (int i = 0; i < 8; i++) {
            h[i] ^= v[i] ^ v[i + 8];
        }
    }

    private void mix(int a, int b, int c, int d, long x, long y) {
        v[a] += v[b] + x;
        v[d] = Long.rotateRight(v[d] ^ v[a], 32);
        v[c] += v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 24);
        v[a] += v[b] + y;
        v[d] = Long.rotateRight(v[d] ^ v[a], 16);
        v[c] += v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 63);
    }
}
