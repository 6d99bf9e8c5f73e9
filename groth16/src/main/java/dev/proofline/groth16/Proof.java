package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import java.util.Arrays;

/** A Groth16 proof (A in G1, B in G2, C in G1; affine, the curve's flat layout) on one curve. */
public final class Proof {

    private final PairingCurve curve;
    private final long[] a;
    private final long[] b;
    private final long[] c;

    public Proof(PairingCurve curve, long[] a, long[] b, long[] c) {
        if (a.length != curve.g1().affineWidth() || c.length != curve.g1().affineWidth()
                || b.length != curve.g2().affineWidth()) {
            throw new IllegalArgumentException("proof points of the wrong width for " + curve.snarkjsName());
        }
        this.curve = curve;
        this.a = a.clone();
        this.b = b.clone();
        this.c = c.clone();
    }

    public PairingCurve curve() {
        return curve;
    }

    public long[] a() {
        return a.clone();
    }

    public long[] b() {
        return b.clone();
    }

    public long[] c() {
        return c.clone();
    }

    /** Same curve and same points (affine coordinates are unique, so equal words are equal points). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Proof p && p.curve == curve && Arrays.equals(a, p.a) && Arrays.equals(b, p.b)
                && Arrays.equals(c, p.c);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(a) * 31 + Arrays.hashCode(b)) * 31 + Arrays.hashCode(c);
    }
}
