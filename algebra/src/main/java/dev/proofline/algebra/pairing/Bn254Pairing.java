package dev.proofline.algebra.pairing;

import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.field.Fp2;
import java.math.BigInteger;

/**
 * The optimal ate pairing of BN254: e(P, Q) = (f_{6u+2,Q}(P) l_{[6u+2]Q,π(Q)}(P) l_{[6u+2]Q+π(Q),-π²(Q)}(P))
 * ^((p^12 - 1)/r) (Vercauteren, "Optimal pairings", 2010), with ξ = 9 + u and the D-type twist.
 *
 * <p>The hard part is the chain of Fuentes-Castañeda, Knapp and Rodríguez-Henríquez ("Faster hashing to
 * G2", SAC 2011), step for step the one in ffjavascript (wasmcurves); it raises to m (p^4 - p^2 + 1)/r with
 * m = 2u(6u^2 + 3u + 1), so {@link #pair} returns the reduced pairing to the power m (a fixed
 * non-multiple of r), the same value snarkjs computes (for example its {@code vk_alphabeta_12}).
 */
public final class Bn254Pairing extends Pairing {

    public static final Bn254Pairing INSTANCE = new Bn254Pairing();

    private final int[] uDigits;      // NAF of u, for g^u
    private final long[] frob1x;      // ξ^((p - 1)/3): π(x, y) = (conj(x) ξ^((p-1)/3), conj(y) ξ^((p-1)/2)) on E'
    private final long[] frob1y;      // ξ^((p - 1)/2)
    private final long[] frob2x;      // ξ^((p^2 - 1)/3)
    private final long[] frob2y;      // ξ^((p^2 - 1)/2)

    private Bn254Pairing() {
        super(Bn254.G1, Bn254.G2, 9, Twist.D,
                nafDigits(Bn254.U.multiply(BigInteger.valueOf(6)).add(BigInteger.TWO)));
        this.uDigits = nafDigits(Bn254.U);
        Fp12 f12 = fp12();
        // on the D-type twist, ψ(x, y) = (x w^2, y w^3), so the p-power Frobenius of E pulled back to E'
        // is (x^p w^(2(p-1)), y^p w^(3(p-1))) = (x^p ξ^((p-1)/3), y^p ξ^((p-1)/2))
        this.frob1x = f12.frobeniusCoefficient(1, 2);
        this.frob1y = f12.frobeniusCoefficient(1, 3);
        this.frob2x = f12.frobeniusCoefficient(2, 2);
        this.frob2y = f12.frobeniusCoefficient(2, 3);
    }

    @Override
    void finishMillerLoop(MillerLoop m) {
        Fp2 fp2 = fp12().fp2();
        int w2 = fp2.width();
        // q1 = π(Q), q2 = -π²(Q), affine: x1, y1, x2, y2
        long[] q = new long[4 * w2];
        for (int j = 0; j < m.pairs; j++) {
            int qx = m.qOffset(j), qy = qx + w2;
            fp2.conjugate(m.q, qx, q, 0);
            fp2.mul(q, 0, frob1x, 0, q, 0);
            fp2.conjugate(m.q, qy, q, w2);
            fp2.mul(q, w2, frob1y, 0, q, w2);
            fp2.mul(m.q, qx, frob2x, 0, q, 2 * w2);
            fp2.mul(m.q, qy, frob2y, 0, q, 3 * w2);
            fp2.neg(q, 3 * w2, q, 3 * w2);
            m.addition(j, q, 0, w2);
            m.addition(j, q, 2 * w2, 3 * w2);
        }
    }

    @Override
    void hardPart(Fp12 f12, long[] g) {
        // exponents in the comments are of g; z = u
        long[] a = f12.newElement(), b = f12.newElement(), c = f12.newElement(), d = f12.newElement();
        long[] e = f12.newElement(), h = f12.newElement(), k = f12.newElement(), l = f12.newElement();
        cyclotomicPow(f12, g, 0, uDigits, true, a, 0);   // A = g^-z
        f12.cyclotomicSquare(a, 0, b, 0);                 // B = g^-2z
        f12.cyclotomicSquare(b, 0, c, 0);                 // C = g^-4z
        f12.mul(c, 0, b, 0, d, 0);                        // D = g^-6z
        cyclotomicPow(f12, d, 0, uDigits, true, e, 0);   // E = g^6z^2
        f12.cyclotomicSquare(e, 0, c, 0);                 // F = g^12z^2
        cyclotomicPow(f12, c, 0, uDigits, true, c, 0);   // G = g^-12z^3
        f12.conjugate(d, 0, h, 0);                        // H = g^6z
        f12.conjugate(c, 0, c, 0);                        // I = g^12z^3
        f12.mul(c, 0, e, 0, c, 0);                        // J = I E = g^(12z^3 + 6z^2)
        f12.mul(c, 0, h, 0, k, 0);                        // K = J H = g^(12z^3 + 6z^2 + 6z)
        f12.mul(k, 0, b, 0, l, 0);                        // L = K B = g^(12z^3 + 6z^2 + 4z)
        f12.mul(k, 0, e, 0, a, 0);                        // M = K E = g^(12z^3 + 12z^2 + 6z)
        f12.mul(a, 0, g, 0, a, 0);                        // N = M g = g^(12z^3 + 12z^2 + 6z + 1)
        f12.frobenius(l, 0, 1, b, 0);                     // O = L^p
        f12.mul(b, 0, a, 0, a, 0);                        // P = O N
        f12.frobenius(k, 0, 2, b, 0);                     // Q = K^(p^2)
        f12.mul(b, 0, a, 0, a, 0);                        // R = Q P
        f12.conjugate(g, 0, b, 0);                        // S = g^-1
        f12.mul(b, 0, l, 0, b, 0);                        // T = S L = g^(12z^3 + 6z^2 + 4z - 1)
        f12.frobenius(b, 0, 3, b, 0);                     // U = T^(p^3)
        // g^(p^3 (12z^3 + 6z^2 + 4z - 1) + p^2 (12z^3 + 6z^2 + 6z) + p (12z^3 + 6z^2 + 4z)
        //    + 12z^3 + 12z^2 + 6z + 1) = g^(2z(6z^2 + 3z + 1) (p^4 - p^2 + 1)/r)
        f12.mul(b, 0, a, 0, g, 0);
    }
}
