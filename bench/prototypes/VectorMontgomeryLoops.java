import jdk.incubator.vector.*;
import java.math.BigInteger;
import java.util.Random;

/**
 * Prototype, not part of the build: the multiplication of VectorMontgomery.java written with loops
 * over a scratch array instead of fully unrolled, so that C1 compiles it and the default tiered
 * compilation reaches C2:
 *
 *   java --add-modules jdk.incubator.vector bench/prototypes/VectorMontgomeryLoops.java
 */
public class VectorMontgomeryLoops {
    static final VectorSpecies<Long> S = LongVector.SPECIES_512;
    static final int L = 9, B = 29;
    static final long M = (1L << B) - 1;
    static final BigInteger P = new BigInteger("21888242871839275222246405745257275088696311157297823662689037894645226208583");
    static final BigInteger R = BigInteger.ONE.shiftLeft(L * B);
    static final long[] Q = limbs(P);
    static final long QINV = P.negate().modInverse(BigInteger.ONE.shiftLeft(B)).longValue();

    static long[] limbs(BigInteger x) {
        long[] r = new long[L];
        for (int i = 0; i < L; i++) r[i] = x.shiftRight(B * i).and(BigInteger.valueOf(M)).longValue();
        return r;
    }
    static BigInteger value(long[] l) {
        BigInteger r = BigInteger.ZERO;
        for (int i = L - 1; i >= 0; i--) r = r.shiftLeft(B).add(BigInteger.valueOf(l[i]));
        return r;
    }

    /** a, b, r: [limb][lane] (limb*8 + lane); t: scratch of (2L+1)*8. */
    static void mul(long[] a, long[] b, long[] r, long[] t) {
        java.util.Arrays.fill(t, 0L);
        for (int j = 0; j < L; j++) {
            LongVector bj = LongVector.fromArray(S, b, j * 8);
            for (int i = 0; i < L; i++) {
                int k = (i + j) * 8;
                LongVector.fromArray(S, t, k).add(LongVector.fromArray(S, a, i * 8).mul(bj)).intoArray(t, k);
            }
        }
        for (int i = 0; i < L; i++) {
            LongVector ti = LongVector.fromArray(S, t, i * 8);
            LongVector m = ti.mul(QINV).and(M);
            for (int j = 0; j < L; j++) {
                int k = (i + j) * 8;
                LongVector.fromArray(S, t, k).add(m.mul(Q[j])).intoArray(t, k);
            }
            ti = LongVector.fromArray(S, t, i * 8);
            LongVector.fromArray(S, t, (i + 1) * 8).add(ti.lanewise(VectorOperators.LSHR, B)).intoArray(t, (i + 1) * 8);
        }
        LongVector c = LongVector.zero(S);
        for (int i = 0; i < L; i++) {
            LongVector v = LongVector.fromArray(S, t, (L + i) * 8).add(c);
            v.and(M).intoArray(r, i * 8);
            c = v.lanewise(VectorOperators.LSHR, B);
        }
    }

    public static void main(String[] x) {
        Random rnd = new Random(1);
        long[] a = new long[L * 8], b = new long[L * 8], r = new long[L * 8], t = new long[(2 * L + 1) * 8];
        BigInteger[] av = new BigInteger[8], bv = new BigInteger[8];
        for (int lane = 0; lane < 8; lane++) {
            av[lane] = new BigInteger(253, rnd).mod(P); bv[lane] = new BigInteger(253, rnd).mod(P);
            long[] al = limbs(av[lane]), bl = limbs(bv[lane]);
            for (int i = 0; i < L; i++) { a[i * 8 + lane] = al[i]; b[i * 8 + lane] = bl[i]; }
        }
        mul(a, b, r, t);
        BigInteger rinv = R.modInverse(P);
        for (int lane = 0; lane < 8; lane++) {
            long[] rl = new long[L];
            for (int i = 0; i < L; i++) rl[i] = r[i * 8 + lane];
            if (!value(rl).mod(P).equals(av[lane].multiply(bv[lane]).multiply(rinv).mod(P))) { System.out.println("MISMATCH"); return; }
        }
        System.out.println("correct");
        long[][] rs = new long[4][L * 8];
        for (int g = 0; g < 4; g++) System.arraycopy(b, 0, rs[g], 0, L * 8);
        int iters = 2_000_000;
        for (int round = 0; round < 4; round++) {
            long t0 = System.nanoTime();
            for (int it = 0; it < iters; it++) for (int g = 0; g < 4; g++) mul(a, rs[g], rs[g], t);
            long dt = System.nanoTime() - t0;
            System.out.printf("%.2f ns per field multiplication%n", dt / (iters * 32.0));
        }
    }
}
