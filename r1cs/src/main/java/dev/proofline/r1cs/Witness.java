package dev.proofline.r1cs;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.List;

/**
 * A full assignment of a circuit's variables: w_0 = 1, then the public signals (outputs, then public
 * inputs, as circom numbers them), then the private ones. Values are canonical (not Montgomery)
 * elements of the scalar field, 4 little-endian words each, which is also the scalar layout of
 * {@link dev.proofline.algebra.msm.Msm}.
 */
public final class Witness {

    /** Words per value. */
    public static final int WORDS = 4;

    private final PairingCurve curve;
    private final long[] values;

    /** Takes ownership of {@code values}: n canonical values of 4 words, each below r. */
    public Witness(PairingCurve curve, long[] values) {
        if (values.length % WORDS != 0) {
            throw new IllegalArgumentException("witness words not a multiple of " + WORDS + ": " + values.length);
        }
        PrimeField fr = curve.fr();
        for (int i = 0; i < values.length / WORDS; i++) {
            if (!fr.isCanonical(values, i * WORDS)) {
                throw new IllegalArgumentException("witness value #" + i + " is not below the scalar field modulus");
            }
        }
        this.curve = curve;
        this.values = values;
    }

    /** A witness from integers (w_0 = 1 first), each reduced mod r. */
    public static Witness of(PairingCurve curve, List<BigInteger> values) {
        long[] w = new long[values.size() * WORDS];
        BigInteger r = curve.fr().modulus();
        for (int i = 0; i < values.size(); i++) {
            long[] v = PrimeField.words(values.get(i).mod(r), WORDS);
            System.arraycopy(v, 0, w, i * WORDS, WORDS);
        }
        return new Witness(curve, w);
    }

    public PairingCurve curve() {
        return curve;
    }

    /** Number of variables, w_0 included. */
    public int size() {
        return values.length / WORDS;
    }

    /** The canonical words, 4 per value; shared, not copied: do not modify. */
    public long[] words() {
        return values;
    }

    public BigInteger value(int i) {
        return PrimeField.wordsToBigInteger(values, i * WORDS, WORDS);
    }

    /** Decimal strings of w_1 .. w_nPublic: snarkjs's public.json. */
    public List<String> publicSignals(int nPublic) {
        if (nPublic < 0 || nPublic + 1 > size()) {
            throw new IllegalArgumentException("the witness has " + size() + " values, " + nPublic + " public");
        }
        String[] out = new String[nPublic];
        for (int i = 0; i < nPublic; i++) {
            out[i] = value(i + 1).toString();
        }
        return List.of(out);
    }
}
