package dev.proofline.groth16.ceremony;

import java.util.Arrays;

/**
 * One contribution as a .ptau file records it (section 7): the first points it left (tau G1,
 * tau G2, alpha G1, beta G1, beta G2), its public key, the state of its response hash before the
 * key ({@link Blake2b#STATE_BYTES} bytes), the hash of the points it left (the next challenge), and
 * its parameters: a name, and for a beacon (type 1) the beacon hash and the exponent of its
 * iteration count.
 */
record Contribution(long[] tauG1, long[] tauG2, long[] alphaG1, long[] betaG1, long[] betaG2, PublicKey key,
        byte[] partialHash, byte[] nextChallenge, int type, String name, int iterationsExp, byte[] beaconHash) {

    static final int CONTRIBUTION = 0;
    static final int BEACON = 1;

    /**
     * A contribution's public key for its secrets tau, alpha, beta (index 0, 1, 2): for each, a
     * random G1 point s, s times the secret, and the hashed G2 point s' times the secret
     * (Bowe-Gabizon-Miers, section 3: the proof of knowledge of each secret).
     */
    record PublicKey(long[][] g1s, long[][] g1sx, long[][] g2spx) {
    }

    boolean isBeacon() {
        return type == BEACON;
    }

    @Override
    public String toString() {
        return "contribution " + (name == null ? "" : "\"" + name + "\" ") + "(type " + type + ", next challenge "
                + HexFormatting.hex(Arrays.copyOf(nextChallenge, 8)) + "...)";
    }
}
