package dev.proofline.groth16.ceremony;

/**
 * The ChaCha20 keystream as ffjavascript's {@code ChaCha} yields it, 32-bit word by word: key = the
 * eight seed words, nonce and counter words all zero, the 64-bit block counter in state words 12-13
 * (and carrying into 14-15). snarkjs seeds it from a hash to derive everything a contribution must be
 * able to reproduce (the beacon's secrets, the points a public key is checked against), so the words
 * and their order must be exactly these.
 */
public final class ChaChaStream {

    private final int[] state = new int[16];
    private final int[] block = new int[16];
    private int index = 16;

    public ChaChaStream(int[] seed) {
        if (seed.length != 8) {
            throw new IllegalArgumentException("a ChaCha seed is 8 words, not " + seed.length);
        }
        state[0] = 0x61707865;
        state[1] = 0x3320646e;
        state[2] = 0x79622d32;
        state[3] = 0x6b206574;
        System.arraycopy(seed, 0, state, 4, 8);
    }

    /** The stream seeded with the first 32 bytes of {@code hash}, read as big-endian words. */
    public static ChaChaStream seededBy(byte[] hash) {
        int[] seed = new int[8];
        for (int i = 0; i < 8; i++) {
            seed[i] = (hash[4 * i] & 0xff) << 24 | (hash[4 * i + 1] & 0xff) << 16 | (hash[4 * i + 2] & 0xff) << 8
                    | (hash[4 * i + 3] & 0xff);
        }
        return new ChaChaStream(seed);
    }

    /** The next word, as an unsigned value in the low 32 bits. */
    public long nextU32() {
        if (index == 16) {
            refill();
        }
        return Integer.toUnsignedLong(block[index++]);
    }

    /** Two words, the first as the high half. */
    public long nextU64() {
        long hi = nextU32();
        return hi << 32 | nextU32();
    }

    public boolean nextBool() {
        return (nextU32() & 1) == 1;
    }

    private void refill() {
        System.arraycopy(state, 0, block, 0, 16);
        for (int i = 0; i < 10; i++) {
            quarter(0, 4, 8, 12);
            quarter(1, 5, 9, 13);
            quarter(2, 6, 10, 14);
            quarter(3, 7, 11, 15);
            quarter(0, 5, 10, 15);
            quarter(1, 6, 11, 12);
            quarter(2, 7, 8, 13);
            quarter(3, 4, 9, 14);
        }
        for (int i = 0; i < 16; i++) {
            block[i] += state[i];
        }
        index = 0;
        for (int w = 12; w < 16 && ++state[w] == 0; w++) {
            // carry into the next counter word
        }
    }

    private void quarter(int a, int b, int c, int d) {
        int[] s = block;
        s[a] += s[b];
        s[d] = Integer.rotateLeft(s[d] ^ s[a], 16);
        s[c] += s[d];
        s[b] = Integer.rotateLeft(s[b] ^ s[c], 12);
        s[a] += s[b];
        s[d] = Integer.rotateLeft(s[d] ^ s[a], 8);
        s[c] += s[d];
        s[b] = Integer.rotateLeft(s[b] ^ s[c], 7);
    }
}
