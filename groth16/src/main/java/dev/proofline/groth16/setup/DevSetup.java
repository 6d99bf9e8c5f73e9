package dev.proofline.groth16.setup;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.groth16.io.ZkeyWriter;
import dev.proofline.r1cs.R1cs;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Random;

/**
 * A Groth16 setup for development: <b>insecure</b>. The secrets tau, alpha, beta, delta are drawn at
 * random here, in one process, and whoever has them (or watches this process) can forge proofs. It
 * exists for tests and benchmarks at sizes where a powers-of-tau ceremony is impractical.
 *
 * <p>The key has exactly the structure of a snarkjs key after one contribution (gamma = the G2
 * generator, as snarkjs leaves it; delta random), so snarkjs proves and verifies with it:
 * <ul>
 *   <li>the domain is the smallest power of two n above nConstraints + nPublic; snarkjs's setup adds
 *       one constraint per public variable w_0 .. w_nPublic (w_i in A, nothing in B or C);
 *   <li>A_j = A_j(tau) G1, B1_j = B_j(tau) G1, B2_j = B_j(tau) G2 with A_j(tau) = sum_c A[c][j] L_c(tau),
 *       L_c the Lagrange basis of the domain of snarkjs's roots of unity;
 *   <li>IC_j = (beta A_j(tau) + alpha B_j(tau) + C_j(tau)) G1 for public j, the same over delta in C
 *       for the private ones;
 *   <li>H_i = l_(2i+1)(tau) / delta G1, l the Lagrange basis of the domain of size 2n: the prover's
 *       values on the odd points of that domain times these give (a b - c)(tau) / delta.
 * </ul>
 */
public final class DevSetup {

    private DevSetup() {
    }

    /** Writes a key for {@code r1cs} to {@code zkey}, with secrets from {@code random}. */
    public static void run(R1cs r1cs, Path zkey, Random random) throws IOException {
        ZkeyWriter.write(zkey, parts(r1cs, random));
    }

    public static void run(R1cs r1cs, Path zkey) throws IOException {
        run(r1cs, zkey, new SecureRandom());
    }

    static ZkeyWriter.Parts parts(R1cs cs, Random random) {
        PairingCurve curve = cs.curve();
        PrimeField fr = curve.fr();
        int nPublic = cs.publicCount();
        int nVars = cs.wireCount();
        int rows = cs.constraintCount() + nPublic + 1;
        int log = 32 - Integer.numberOfLeadingZeros(rows - 1);
        if (log + 1 > fr.twoAdicity()) {
            throw new IllegalArgumentException(rows + " constraints (with the public ones) exceed the largest domain of "
                    + curve.snarkjsName());
        }
        int n = 1 << log;
        long[] tau = randomNonZero(fr, random);
        long[] alpha = randomNonZero(fr, random);
        long[] beta = randomNonZero(fr, random);
        long[] delta = randomNonZero(fr, random);
        long[] deltaInv = fr.newElement();
        fr.inv(delta, 0, deltaInv, 0);

        long[] lagrange = lagrange(fr, tau, log, 1, 0, n);
        long[] lagrange2n = lagrange(fr, tau, log + 1, 2, 1, n); // odd points of the 2n domain

        // A_j(tau), B_j(tau), C_j(tau), Montgomery form
        long[] at = new long[nVars * 4];
        long[] bt = new long[nVars * 4];
        long[] ct = new long[nVars * 4];
        R1cs.Matrix[] ms = {cs.a(), cs.b(), cs.c()};
        long[][] outs = {at, bt, ct};
        long[] t = new long[4];
        int coefCount = cs.a().terms() + cs.b().terms() + nPublic + 1;
        ByteBuffer coefs = ByteBuffer.allocate(Math.multiplyExact(coefCount, 44)).order(ByteOrder.LITTLE_ENDIAN);
        long[] r2 = fr.newElement();
        for (int row = 0; row < cs.constraintCount(); row++) {
            for (int k = 0; k < 3; k++) {
                R1cs.Matrix m = ms[k];
                for (int e = m.rowStart()[row]; e < m.rowStart()[row + 1]; e++) {
                    int j = m.columns()[e];
                    fr.mul(m.coefficients(), e * 4, lagrange, row * 4, t, 0);
                    fr.add(outs[k], j * 4, t, 0, outs[k], j * 4);
                    if (k < 2) {
                        // stored value: the integer coef R^2 mod r = Montgomery form of (coef R)
                        fr.toMontgomery(m.coefficients(), e * 4, r2, 0);
                        record(coefs, k, row, j, r2);
                    }
                }
            }
        }
        long[] oneR = fr.newElement();
        fr.toMontgomery(fr.one(), 0, oneR, 0);
        for (int s = 0; s <= nPublic; s++) {
            int row = cs.constraintCount() + s;
            fr.add(at, s * 4, lagrange, row * 4, at, s * 4);
            record(coefs, 0, row, s, oneR);
        }

        // scalars of the point vectors, canonical words
        long[] icS = new long[(nPublic + 1) * 4];
        long[] cS = new long[(nVars - nPublic - 1) * 4];
        long[] u = new long[4];
        for (int j = 0; j < nVars; j++) {
            fr.mul(beta, 0, at, j * 4, u, 0);
            fr.mul(alpha, 0, bt, j * 4, t, 0);
            fr.add(u, 0, t, 0, u, 0);
            fr.add(u, 0, ct, j * 4, u, 0);
            if (j <= nPublic) {
                fr.fromMontgomery(u, 0, icS, j * 4);
            } else {
                fr.mul(u, 0, deltaInv, 0, u, 0);
                fr.fromMontgomery(u, 0, cS, (j - nPublic - 1) * 4);
            }
        }
        long[] hS = new long[n * 4];
        for (int i = 0; i < n; i++) {
            fr.mul(lagrange2n, i * 4, deltaInv, 0, u, 0);
            fr.fromMontgomery(u, 0, hS, i * 4);
        }
        long[] atS = canonical(fr, at);
        long[] btS = canonical(fr, bt);

        FixedBase g1 = new FixedBase(curve.g1(), curve.g1().generator());
        FixedBase g2 = new FixedBase(curve.g2(), curve.g2().generator());
        long[] secrets = new long[4 * 4];
        fr.fromMontgomery(alpha, 0, secrets, 0);
        fr.fromMontgomery(beta, 0, secrets, 4);
        fr.fromMontgomery(delta, 0, secrets, 8);
        long[] s1 = g1.multiply(secrets, 3);
        long[] s2 = g2.multiply(secrets, 3);
        int a1 = curve.g1().affineWidth();
        int a2 = curve.g2().affineWidth();
        byte[] coefBytes = new byte[coefs.position()];
        coefs.flip().get(coefBytes);
        return new ZkeyWriter.Parts(curve, nVars, nPublic, n,
                slice(s1, 0, a1), slice(s1, a1, a1), slice(s2, a2, a2), curve.g2().generator(), slice(s1, 2 * a1, a1),
                slice(s2, 2 * a2, a2), g1.multiply(icS, nPublic + 1), coefBytes, coefCount,
                g1.multiply(atS, nVars), g1.multiply(btS, nVars), g2.multiply(btS, nVars),
                g1.multiply(cS, nVars - nPublic - 1), g1.multiply(hS, n));
    }

    private static void record(ByteBuffer b, int matrix, int row, int signal, long[] value) {
        b.putInt(matrix).putInt(row).putInt(signal);
        for (int i = 0; i < 4; i++) {
            b.putLong(value[i]);
        }
    }

    /**
     * L_k(tau) for k = first, first + step, ... (count values) over the domain of size 2^log with
     * snarkjs's root w: L_k(tau) = (tau^N - 1) / N * w^k / (tau - w^k). Montgomery form.
     */
    private static long[] lagrange(PrimeField fr, long[] tau, int log, int step, int first, int count) {
        long[] w = RootsOfUnity.primitive(fr, log);
        long[] tauN = tau.clone();
        for (int i = 0; i < log; i++) {
            fr.sqr(tauN, 0, tauN, 0);
        }
        long[] factor = fr.newElement();
        fr.sub(tauN, 0, fr.one(), 0, factor, 0);
        long[] nInv = fr.fromBigInteger(BigInteger.ONE.shiftLeft(log).modInverse(fr.modulus()));
        fr.mul(factor, 0, nInv, 0, factor, 0);
        long[] wk = fr.one();
        long[] wStep = w.clone();
        for (int i = 1; i < step; i++) {
            fr.mul(wStep, 0, w, 0, wStep, 0);
        }
        for (int i = 0; i < first; i++) {
            fr.mul(wk, 0, w, 0, wk, 0);
        }
        long[] num = new long[count * 4];
        long[] den = new long[count * 4];
        for (int i = 0; i < count; i++) {
            fr.mul(factor, 0, wk, 0, num, i * 4);
            fr.sub(tau, 0, wk, 0, den, i * 4);
            fr.mul(wk, 0, wStep, 0, wk, 0);
        }
        fr.batchInverse(den, 0, den, 0, count);
        for (int i = 0; i < count; i++) {
            fr.mul(num, i * 4, den, i * 4, num, i * 4);
        }
        return num;
    }

    private static long[] canonical(PrimeField fr, long[] mont) {
        long[] out = new long[mont.length];
        for (int i = 0; i < mont.length / 4; i++) {
            fr.fromMontgomery(mont, i * 4, out, i * 4);
        }
        return out;
    }

    private static long[] slice(long[] a, int from, int len) {
        long[] r = new long[len];
        System.arraycopy(a, from, r, 0, len);
        return r;
    }

    private static long[] randomNonZero(PrimeField fr, Random random) {
        while (true) {
            long[] x = fr.fromBigInteger(new BigInteger(fr.bits() + 128, random));
            if (!fr.isZero(x, 0)) {
                return x;
            }
        }
    }
}
