package dev.proofline.algebra.pairing;

import dev.proofline.algebra.bls12381.Bls12381;

/**
 * The optimal ate pairing of BLS12-381: e(P, Q) = f_{x,Q}(P)^((p^12 - 1)/r) with x < 0 handled by
 * conjugation (f_{-k} = 1/f_k up to factors the final exponentiation kills; 1/f = conj(f) after it),
 * ξ = 1 + u and the M-type twist.
 *
 * <p>The hard part is the chain of zcash's pairing crate, which ffjavascript (wasmcurves) transcribes;
 * it raises to 3 (p^4 - p^2 + 1)/r, by the decomposition
 * 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3, so {@link #pair} returns the cube of the
 * reduced pairing, the same value snarkjs computes.
 */
public final class Bls12381Pairing extends Pairing {

    public static final Bls12381Pairing INSTANCE = new Bls12381Pairing();

    private final int[] xDigits;   // binary |x| (only 6 set bits: NAF would not shorten it)

    private Bls12381Pairing() {
        super(Bls12381.G1, Bls12381.G2, 1, Twist.M, binaryDigits(Bls12381.X.negate()));
        this.xDigits = binaryDigits(Bls12381.X.negate());
    }

    @Override
    void finishMillerLoop(MillerLoop m) {
        m.conjugate();   // x < 0
    }

    /** r = a^x (x < 0), a in the cyclotomic subgroup. */
    private void expByX(Fp12 f12, long[] a, long[] r) {
        cyclotomicPow(f12, a, 0, xDigits, true, r, 0);
    }

    @Override
    void hardPart(Fp12 f12, long[] g) {
        long[] t0 = f12.newElement(), t1 = f12.newElement(), t3 = f12.newElement();
        long[] t4 = f12.newElement(), t5 = f12.newElement(), t6 = f12.newElement();
        f12.cyclotomicSquare(g, 0, t1, 0);
        f12.conjugate(t1, 0, t1, 0);          // t1 = g^-2
        expByX(f12, g, t3);                   // t3 = g^x
        f12.cyclotomicSquare(t3, 0, t4, 0);   // t4 = g^2x
        f12.mul(t1, 0, t3, 0, t5, 0);         // t5 = g^(x - 2)
        expByX(f12, t5, t1);                  // t1 = g^(x^2 - 2x)
        expByX(f12, t1, t0);                  // t0 = g^(x^3 - 2x^2)
        expByX(f12, t0, t6);                  // t6 = g^(x^4 - 2x^3)
        f12.mul(t6, 0, t4, 0, t6, 0);         // t6 = g^(x^4 - 2x^3 + 2x)
        expByX(f12, t6, t4);                  // t4 = g^(x^5 - 2x^4 + 2x^2)
        f12.conjugate(t5, 0, t5, 0);          // t5 = g^(2 - x)
        f12.mul(t4, 0, t5, 0, t4, 0);
        f12.mul(t4, 0, g, 0, t4, 0);          // t4 = g^(x^5 - 2x^4 + 2x^2 - x + 3)
        f12.conjugate(g, 0, t5, 0);           // t5 = g^-1
        f12.mul(t1, 0, g, 0, t1, 0);          // t1 = g^(x^2 - 2x + 1)
        f12.frobenius(t1, 0, 3, t1, 0);       //      ^(p^3)
        f12.mul(t6, 0, t5, 0, t6, 0);         // t6 = g^(x^4 - 2x^3 + 2x - 1)
        f12.frobenius(t6, 0, 1, t6, 0);       //      ^p
        f12.mul(t3, 0, t0, 0, t3, 0);         // t3 = g^(x^3 - 2x^2 + x)
        f12.frobenius(t3, 0, 2, t3, 0);       //      ^(p^2)
        f12.mul(t3, 0, t1, 0, t3, 0);
        f12.mul(t3, 0, t6, 0, t3, 0);
        // g^(p^3 (x - 1)^2 + p^2 x (x - 1)^2 + p (x^4 - 2x^3 + 2x - 1) + x^5 - 2x^4 + 2x^2 - x + 3)
        //   = g^(3 (p^4 - p^2 + 1)/r)
        f12.mul(t3, 0, t4, 0, g, 0);
    }
}
