package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;

/**
 * One phase-2 contribution as a .zkey records it (section 10): delta G1 after it, its public key for
 * its secret delta (s G1, delta s G1, delta s' G2 with s' G2 drawn from a ChaCha stream seeded by
 * the transcript), the transcript hash, and its parameters: a name, and for a beacon (type 1) the
 * beacon hash and the exponent of its iteration count.
 *
 * <p>The transcript of contribution k is BLAKE2b-512(circuit hash || the public keys of contributions
 * 1..k-1 || s G1 || delta s G1), points uncompressed; a public key, as hashed, is delta G1 after, s G1,
 * delta s G1, delta s' G2 and the transcript. A contribution's hash is BLAKE2b-512 of its public key.
 */
record KeyContribution(long[] deltaAfter, long[] g1s, long[] g1sx, long[] g2spx, byte[] transcript, int type,
        String name, int iterationsExp, byte[] beaconHash) {

    static final int CONTRIBUTION = 0;
    static final int BEACON = 1;

    boolean isBeacon() {
        return type == BEACON;
    }

    /** The same points and transcript with other parameters (the MPC parameters format keeps none). */
    KeyContribution withParameters(int type, String name, int iterationsExp, byte[] beaconHash) {
        return new KeyContribution(deltaAfter, g1s, g1sx, g2spx, transcript, type, name, iterationsExp, beaconHash);
    }

    /** Feeds the public key, as snarkjs hashes it, to {@code h}. */
    void hashPublicKey(Blake2b h, PairingCurve curve) {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        PointBytes g2 = new PointBytes(curve.g2(), curve.fp());
        h.update(g1.uncompressed(deltaAfter, 0));
        h.update(g1.uncompressed(g1s, 0));
        h.update(g1.uncompressed(g1sx, 0));
        h.update(g2.uncompressed(g2spx, 0));
        h.update(transcript);
    }

    /** The hash snarkjs prints for this contribution. */
    byte[] hash(PairingCurve curve) {
        Blake2b h = new Blake2b();
        hashPublicKey(h, curve);
        return h.digest();
    }
}
