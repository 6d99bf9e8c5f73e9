package dev.proofline.algebra.ntt;

import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The power-of-two roots of unity of a prime field, chosen exactly as ffjavascript chooses them,
 * because a snarkjs proving key bakes them in: its H section holds the Lagrange basis of the coset
 * that the prover evaluates on, so a different root gives a different (wrong) proof.
 *
 * <p>ffjavascript ({@code src/wasm_field1.js} constructor, {@code src/f1field.js}, and wasmcurves'
 * {@code build_fft.js} that bakes the table into the wasm code): with q - 1 = 2^s * t, t odd, and
 * nqr the smallest quadratic non-residue counting up from 2,
 * <pre>
 *   w[s] = nqr^t,   w[k] = w[k+1]^2  (k = s-1 .. 0)
 * </pre>
 * so w[k] is a primitive 2^k-th root of unity and every w[k] is a power of the same generator:
 * the domain of size 2^k is a subgroup of the domain of size 2^(k+1). {@code Fr.fft} of 2^k points
 * evaluates at w[k]^i.
 */
public final class RootsOfUnity {

    private static final Map<PrimeField, long[][]> TABLES = new ConcurrentHashMap<>();

    private RootsOfUnity() {
    }

    /** ffjavascript's {@code w[k]}: a primitive 2^k-th root of unity, Montgomery form, 0 <= k <= s. */
    public static long[] primitive(PrimeField f, int k) {
        long[][] w = table(f);
        if (k < 0 || k >= w.length) {
            throw new IllegalArgumentException("2^" + k + " does not divide q - 1 of the " + f.name()
                    + " (two-adicity " + f.twoAdicity() + ")");
        }
        return w[k].clone();
    }

    /**
     * The coset shift snarkjs's Groth16 prover uses for a domain of size 2^logSize
     * ({@code src/groth16_prove.js}, {@code groth16Prove}):
     * {@code inc = power == Fr.s ? Fr.shift : Fr.w[power + 1]}, i.e. a primitive 2^(logSize+1)-th
     * root of unity (so g*H is the other half of the domain of twice the size, where Z = X^n - 1
     * equals g^n - 1 = -2), or nqr^2 ({@code Fr.shift}) when no larger root exists.
     */
    public static long[] snarkjsCosetShift(PrimeField f, int logSize) {
        int s = f.twoAdicity();
        if (logSize < 0 || logSize > s) {
            throw new IllegalArgumentException("log size " + logSize + " out of [0, " + s + "]");
        }
        if (logSize < s) {
            return primitive(f, logSize + 1);
        }
        BigInteger nqr = f.smallestNonResidue();
        return f.fromBigInteger(nqr.multiply(nqr));
    }

    private static long[][] table(PrimeField f) {
        return TABLES.computeIfAbsent(f, RootsOfUnity::compute);
    }

    private static long[][] compute(PrimeField f) {
        BigInteger q = f.modulus();
        int s = f.twoAdicity();
        BigInteger t = q.subtract(BigInteger.ONE).shiftRight(s);
        BigInteger[] w = new BigInteger[s + 1];
        w[s] = f.smallestNonResidue().modPow(t, q);
        for (int k = s - 1; k >= 0; k--) {
            w[k] = w[k + 1].multiply(w[k + 1]).mod(q);
        }
        if (!w[0].equals(BigInteger.ONE)) {
            throw new IllegalStateException("the 2^s-th root of unity of the " + f.name() + " is wrong");
        }
        long[][] m = new long[s + 1][];
        for (int k = 0; k <= s; k++) {
            m[k] = f.fromBigInteger(w[k]);
        }
        return m;
    }
}
