package dev.proofline.groth16.ceremony;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.ScalarMultiplier;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * A contributor's secrets tau, alpha, beta (the toxic waste) and the public key that proves
 * knowledge of them without revealing them. For each secret x (Bowe-Gabizon-Miers, "Scalable
 * Multi-party Computation for zk-SNARK Parameters", section 3): a random s G1, its multiple x s G1,
 * and x s' G2 where s' G2 is derived from a hash of the previous challenge, the secret's index and
 * the two G1 points, so that a verifier can recompute s' G2 and check e(s, x s') = e(x s, s').
 * The secrets are drawn from a {@link ChaChaStream} in snarkjs's order, so a beacon's key can be
 * recomputed by anyone; {@link #close()} overwrites them.
 */
final class ContributionKey implements AutoCloseable {

    private final PairingCurve curve;
    private final long[][] secrets;   // Montgomery form: tau, alpha, beta
    private final Contribution.PublicKey publicKey;

    private ContributionKey(PairingCurve curve, long[][] secrets, Contribution.PublicKey publicKey) {
        this.curve = curve;
        this.secrets = secrets;
        this.publicKey = publicKey;
    }

    /** A key for a contribution after {@code challenge}, drawn from {@code rng}. */
    static ContributionKey fromRng(PairingCurve curve, byte[] challenge, ChaChaStream rng) {
        PrimeField fr = curve.fr();
        long[][] secrets = new long[3][];
        for (int k = 0; k < 3; k++) {
            secrets[k] = ChaChaSampler.element(fr, rng);
        }
        long[][] g1s = new long[3][];
        long[][] g1sx = new long[3][];
        long[][] g2spx = new long[3][];
        for (int k = 0; k < 3; k++) {
            g1s[k] = ChaChaSampler.g1(curve, rng);
            g1sx[k] = times(curve.g1(), g1s[k], fr, secrets[k]);
            long[] g2sp = g2sp(curve, k, challenge, g1s[k], g1sx[k]);
            g2spx[k] = times(curve.g2(), g2sp, fr, secrets[k]);
        }
        return new ContributionKey(curve, secrets, new Contribution.PublicKey(g1s, g1sx, g2spx));
    }

    /**
     * The ChaCha stream of a contribution: seeded by BLAKE2b(64 bytes from the operating system's
     * secure source || the contributor's entropy text), as snarkjs seeds it.
     */
    static ChaChaStream randomStream(String entropy) {
        byte[] os = new byte[64];
        new SecureRandom().nextBytes(os);
        byte[] seed = Blake2b.hash(os, entropy.getBytes(StandardCharsets.UTF_8));
        Arrays.fill(os, (byte) 0);
        ChaChaStream s = ChaChaStream.seededBy(seed);
        Arrays.fill(seed, (byte) 0);
        return s;
    }

    /** The ChaCha stream of a beacon: seeded by SHA-256 applied 2^iterationsExp times to the beacon hash. */
    static ChaChaStream beaconStream(byte[] beaconHash, int iterationsExp) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] h = beaconHash.clone();
        long inner = 1L << Math.min(iterationsExp, 62);
        for (int outer = 0; outer < (iterationsExp == 63 ? 2 : 1); outer++) {
            for (long i = 0; i < inner; i++) {
                h = sha.digest(h);
            }
        }
        return ChaChaStream.seededBy(h);
    }

    /** s' G2 for the secret of index {@code personalization}: hashed from the challenge and s G1, x s G1. */
    static long[] g2sp(PairingCurve curve, int personalization, byte[] challenge, long[] g1s, long[] g1sx) {
        PointBytes g1 = new PointBytes(curve.g1(), curve.fp());
        byte[] h = Blake2b.hash(new byte[] {(byte) personalization}, challenge, g1.uncompressed(g1s, 0),
                g1.uncompressed(g1sx, 0));
        return ChaChaSampler.g2(curve, ChaChaStream.seededBy(h));
    }

    /** x P for an affine P and x in Montgomery form, affine. */
    static long[] times(WeierstrassCurve c, long[] p, PrimeField fr, long[] x) {
        long[] j = new long[c.jacobianWidth()];
        new ScalarMultiplier(c.arithmetic()).mulAffine(p, 0, fr.toBigInteger(x, 0), j, 0);
        long[] r = new long[c.affineWidth()];
        c.arithmetic().toAffine(j, 0, r, 0);
        return r;
    }

    PairingCurve curve() {
        return curve;
    }

    long[] tau() {
        return secrets[0];
    }

    long[] alpha() {
        return secrets[1];
    }

    long[] beta() {
        return secrets[2];
    }

    Contribution.PublicKey publicKey() {
        return publicKey;
    }

    @Override
    public void close() {
        for (long[] s : secrets) {
            Arrays.fill(s, 0L);
        }
    }
}
