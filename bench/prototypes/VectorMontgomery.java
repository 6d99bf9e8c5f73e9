import jdk.incubator.vector.*;
import java.math.BigInteger;
import java.util.Random;

/**
 * Prototype, not part of the build: 8 independent Montgomery multiplications mod the BN254 base field
 * prime at once, one per 64-bit lane of a 512-bit vector (jdk.incubator.vector), each element as 9
 * limbs of 29 bits (R = 2^261), so that column sums of 58-bit products never carry and the only
 * serial step is one 29-bit carry per reduction round. Output below 2p, not canonical.
 *
 *   java -XX:-TieredCompilation --add-modules jdk.incubator.vector bench/prototypes/VectorMontgomery.java
 *
 * C2 is needed: the unrolled method is too large for C1, which gives up on it, and with tiered
 * compilation C2 did not take over in this run, hence -XX:-TieredCompilation.
 */
public class VectorMontgomery {
    static final VectorSpecies<Long> S = LongVector.SPECIES_512;
    static final int L = 9, B = 29;
    static final long M = (1L << B) - 1;
    static final BigInteger P = new BigInteger("21888242871839275222246405745257275088696311157297823662689037894645226208583");
    static final BigInteger R = BigInteger.ONE.shiftLeft(L * B); // 2^261
    static final long[] Q = limbs(P);
    static final long QINV = P.negate().modInverse(BigInteger.ONE.shiftLeft(B)).longValue(); // -p^-1 mod 2^29

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

    static final long Q0 = Q[0];
    static final long Q1 = Q[1];
    static final long Q2 = Q[2];
    static final long Q3 = Q[3];
    static final long Q4 = Q[4];
    static final long Q5 = Q[5];
    static final long Q6 = Q[6];
    static final long Q7 = Q[7];
    static final long Q8 = Q[8];
    static void mulU(long[] a, long[] b, long[] r) {
        LongVector a0 = LongVector.fromArray(S, a, 0);
        LongVector a1 = LongVector.fromArray(S, a, 8);
        LongVector a2 = LongVector.fromArray(S, a, 16);
        LongVector a3 = LongVector.fromArray(S, a, 24);
        LongVector a4 = LongVector.fromArray(S, a, 32);
        LongVector a5 = LongVector.fromArray(S, a, 40);
        LongVector a6 = LongVector.fromArray(S, a, 48);
        LongVector a7 = LongVector.fromArray(S, a, 56);
        LongVector a8 = LongVector.fromArray(S, a, 64);
        LongVector t0 = LongVector.zero(S);
        LongVector t1 = LongVector.zero(S);
        LongVector t2 = LongVector.zero(S);
        LongVector t3 = LongVector.zero(S);
        LongVector t4 = LongVector.zero(S);
        LongVector t5 = LongVector.zero(S);
        LongVector t6 = LongVector.zero(S);
        LongVector t7 = LongVector.zero(S);
        LongVector t8 = LongVector.zero(S);
        LongVector t9 = LongVector.zero(S);
        LongVector t10 = LongVector.zero(S);
        LongVector t11 = LongVector.zero(S);
        LongVector t12 = LongVector.zero(S);
        LongVector t13 = LongVector.zero(S);
        LongVector t14 = LongVector.zero(S);
        LongVector t15 = LongVector.zero(S);
        LongVector t16 = LongVector.zero(S);
        LongVector t17 = LongVector.zero(S);
        LongVector t18 = LongVector.zero(S);
        { LongVector bj = LongVector.fromArray(S, b, 0);
          t0 = t0.add(a0.mul(bj));
          t1 = t1.add(a1.mul(bj));
          t2 = t2.add(a2.mul(bj));
          t3 = t3.add(a3.mul(bj));
          t4 = t4.add(a4.mul(bj));
          t5 = t5.add(a5.mul(bj));
          t6 = t6.add(a6.mul(bj));
          t7 = t7.add(a7.mul(bj));
          t8 = t8.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 8);
          t1 = t1.add(a0.mul(bj));
          t2 = t2.add(a1.mul(bj));
          t3 = t3.add(a2.mul(bj));
          t4 = t4.add(a3.mul(bj));
          t5 = t5.add(a4.mul(bj));
          t6 = t6.add(a5.mul(bj));
          t7 = t7.add(a6.mul(bj));
          t8 = t8.add(a7.mul(bj));
          t9 = t9.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 16);
          t2 = t2.add(a0.mul(bj));
          t3 = t3.add(a1.mul(bj));
          t4 = t4.add(a2.mul(bj));
          t5 = t5.add(a3.mul(bj));
          t6 = t6.add(a4.mul(bj));
          t7 = t7.add(a5.mul(bj));
          t8 = t8.add(a6.mul(bj));
          t9 = t9.add(a7.mul(bj));
          t10 = t10.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 24);
          t3 = t3.add(a0.mul(bj));
          t4 = t4.add(a1.mul(bj));
          t5 = t5.add(a2.mul(bj));
          t6 = t6.add(a3.mul(bj));
          t7 = t7.add(a4.mul(bj));
          t8 = t8.add(a5.mul(bj));
          t9 = t9.add(a6.mul(bj));
          t10 = t10.add(a7.mul(bj));
          t11 = t11.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 32);
          t4 = t4.add(a0.mul(bj));
          t5 = t5.add(a1.mul(bj));
          t6 = t6.add(a2.mul(bj));
          t7 = t7.add(a3.mul(bj));
          t8 = t8.add(a4.mul(bj));
          t9 = t9.add(a5.mul(bj));
          t10 = t10.add(a6.mul(bj));
          t11 = t11.add(a7.mul(bj));
          t12 = t12.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 40);
          t5 = t5.add(a0.mul(bj));
          t6 = t6.add(a1.mul(bj));
          t7 = t7.add(a2.mul(bj));
          t8 = t8.add(a3.mul(bj));
          t9 = t9.add(a4.mul(bj));
          t10 = t10.add(a5.mul(bj));
          t11 = t11.add(a6.mul(bj));
          t12 = t12.add(a7.mul(bj));
          t13 = t13.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 48);
          t6 = t6.add(a0.mul(bj));
          t7 = t7.add(a1.mul(bj));
          t8 = t8.add(a2.mul(bj));
          t9 = t9.add(a3.mul(bj));
          t10 = t10.add(a4.mul(bj));
          t11 = t11.add(a5.mul(bj));
          t12 = t12.add(a6.mul(bj));
          t13 = t13.add(a7.mul(bj));
          t14 = t14.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 56);
          t7 = t7.add(a0.mul(bj));
          t8 = t8.add(a1.mul(bj));
          t9 = t9.add(a2.mul(bj));
          t10 = t10.add(a3.mul(bj));
          t11 = t11.add(a4.mul(bj));
          t12 = t12.add(a5.mul(bj));
          t13 = t13.add(a6.mul(bj));
          t14 = t14.add(a7.mul(bj));
          t15 = t15.add(a8.mul(bj));
        }
        { LongVector bj = LongVector.fromArray(S, b, 64);
          t8 = t8.add(a0.mul(bj));
          t9 = t9.add(a1.mul(bj));
          t10 = t10.add(a2.mul(bj));
          t11 = t11.add(a3.mul(bj));
          t12 = t12.add(a4.mul(bj));
          t13 = t13.add(a5.mul(bj));
          t14 = t14.add(a6.mul(bj));
          t15 = t15.add(a7.mul(bj));
          t16 = t16.add(a8.mul(bj));
        }
        { LongVector m = t0.mul(QINV).and(M);
          t0 = t0.add(m.mul(Q0));
          t1 = t1.add(m.mul(Q1));
          t2 = t2.add(m.mul(Q2));
          t3 = t3.add(m.mul(Q3));
          t4 = t4.add(m.mul(Q4));
          t5 = t5.add(m.mul(Q5));
          t6 = t6.add(m.mul(Q6));
          t7 = t7.add(m.mul(Q7));
          t8 = t8.add(m.mul(Q8));
          t1 = t1.add(t0.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t1.mul(QINV).and(M);
          t1 = t1.add(m.mul(Q0));
          t2 = t2.add(m.mul(Q1));
          t3 = t3.add(m.mul(Q2));
          t4 = t4.add(m.mul(Q3));
          t5 = t5.add(m.mul(Q4));
          t6 = t6.add(m.mul(Q5));
          t7 = t7.add(m.mul(Q6));
          t8 = t8.add(m.mul(Q7));
          t9 = t9.add(m.mul(Q8));
          t2 = t2.add(t1.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t2.mul(QINV).and(M);
          t2 = t2.add(m.mul(Q0));
          t3 = t3.add(m.mul(Q1));
          t4 = t4.add(m.mul(Q2));
          t5 = t5.add(m.mul(Q3));
          t6 = t6.add(m.mul(Q4));
          t7 = t7.add(m.mul(Q5));
          t8 = t8.add(m.mul(Q6));
          t9 = t9.add(m.mul(Q7));
          t10 = t10.add(m.mul(Q8));
          t3 = t3.add(t2.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t3.mul(QINV).and(M);
          t3 = t3.add(m.mul(Q0));
          t4 = t4.add(m.mul(Q1));
          t5 = t5.add(m.mul(Q2));
          t6 = t6.add(m.mul(Q3));
          t7 = t7.add(m.mul(Q4));
          t8 = t8.add(m.mul(Q5));
          t9 = t9.add(m.mul(Q6));
          t10 = t10.add(m.mul(Q7));
          t11 = t11.add(m.mul(Q8));
          t4 = t4.add(t3.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t4.mul(QINV).and(M);
          t4 = t4.add(m.mul(Q0));
          t5 = t5.add(m.mul(Q1));
          t6 = t6.add(m.mul(Q2));
          t7 = t7.add(m.mul(Q3));
          t8 = t8.add(m.mul(Q4));
          t9 = t9.add(m.mul(Q5));
          t10 = t10.add(m.mul(Q6));
          t11 = t11.add(m.mul(Q7));
          t12 = t12.add(m.mul(Q8));
          t5 = t5.add(t4.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t5.mul(QINV).and(M);
          t5 = t5.add(m.mul(Q0));
          t6 = t6.add(m.mul(Q1));
          t7 = t7.add(m.mul(Q2));
          t8 = t8.add(m.mul(Q3));
          t9 = t9.add(m.mul(Q4));
          t10 = t10.add(m.mul(Q5));
          t11 = t11.add(m.mul(Q6));
          t12 = t12.add(m.mul(Q7));
          t13 = t13.add(m.mul(Q8));
          t6 = t6.add(t5.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t6.mul(QINV).and(M);
          t6 = t6.add(m.mul(Q0));
          t7 = t7.add(m.mul(Q1));
          t8 = t8.add(m.mul(Q2));
          t9 = t9.add(m.mul(Q3));
          t10 = t10.add(m.mul(Q4));
          t11 = t11.add(m.mul(Q5));
          t12 = t12.add(m.mul(Q6));
          t13 = t13.add(m.mul(Q7));
          t14 = t14.add(m.mul(Q8));
          t7 = t7.add(t6.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t7.mul(QINV).and(M);
          t7 = t7.add(m.mul(Q0));
          t8 = t8.add(m.mul(Q1));
          t9 = t9.add(m.mul(Q2));
          t10 = t10.add(m.mul(Q3));
          t11 = t11.add(m.mul(Q4));
          t12 = t12.add(m.mul(Q5));
          t13 = t13.add(m.mul(Q6));
          t14 = t14.add(m.mul(Q7));
          t15 = t15.add(m.mul(Q8));
          t8 = t8.add(t7.lanewise(VectorOperators.LSHR, B)); }
        { LongVector m = t8.mul(QINV).and(M);
          t8 = t8.add(m.mul(Q0));
          t9 = t9.add(m.mul(Q1));
          t10 = t10.add(m.mul(Q2));
          t11 = t11.add(m.mul(Q3));
          t12 = t12.add(m.mul(Q4));
          t13 = t13.add(m.mul(Q5));
          t14 = t14.add(m.mul(Q6));
          t15 = t15.add(m.mul(Q7));
          t16 = t16.add(m.mul(Q8));
          t9 = t9.add(t8.lanewise(VectorOperators.LSHR, B)); }
        LongVector c = LongVector.zero(S); LongVector v;
        v = t9.add(c); v.and(M).intoArray(r, 0); c = v.lanewise(VectorOperators.LSHR, B);
        v = t10.add(c); v.and(M).intoArray(r, 8); c = v.lanewise(VectorOperators.LSHR, B);
        v = t11.add(c); v.and(M).intoArray(r, 16); c = v.lanewise(VectorOperators.LSHR, B);
        v = t12.add(c); v.and(M).intoArray(r, 24); c = v.lanewise(VectorOperators.LSHR, B);
        v = t13.add(c); v.and(M).intoArray(r, 32); c = v.lanewise(VectorOperators.LSHR, B);
        v = t14.add(c); v.and(M).intoArray(r, 40); c = v.lanewise(VectorOperators.LSHR, B);
        v = t15.add(c); v.and(M).intoArray(r, 48); c = v.lanewise(VectorOperators.LSHR, B);
        v = t16.add(c); v.and(M).intoArray(r, 56); c = v.lanewise(VectorOperators.LSHR, B);
        v = t17.add(c); v.and(M).intoArray(r, 64); c = v.lanewise(VectorOperators.LSHR, B);
    }

    /** a, b, r: [limb][lane] flattened as limb*8 + lane. r = a b R^-1 mod p (result < 2p). */
    static void mul(long[] a, long[] b, long[] r) {
        LongVector[] av = new LongVector[L];
        for (int i = 0; i < L; i++) av[i] = LongVector.fromArray(S, a, i * 8);
        LongVector[] t = new LongVector[2 * L + 1];
        LongVector zero = LongVector.zero(S);
        for (int k = 0; k <= 2 * L; k++) t[k] = zero;
        // schoolbook product, columns accumulate without carries (products < 2^58, <= 9 per column)
        for (int j = 0; j < L; j++) {
            LongVector bj = LongVector.fromArray(S, b, j * 8);
            for (int i = 0; i < L; i++) t[i + j] = t[i + j].add(av[i].mul(bj));
        }
        // Montgomery reduction, one 29-bit digit at a time
        for (int i = 0; i < L; i++) {
            LongVector m = t[i].mul(QINV).and(M);
            for (int j = 0; j < L; j++) t[i + j] = t[i + j].add(m.mul(Q[j]));
            t[i + 1] = t[i + 1].add(t[i].lanewise(VectorOperators.LSHR, B));
        }
        // result = t[L .. 2L-1] with carries normalised
        LongVector c = zero;
        for (int i = 0; i < L; i++) {
            LongVector v = t[L + i].add(c);
            v.and(M).intoArray(r, i * 8);
            c = v.lanewise(VectorOperators.LSHR, B);
        }
    }

    public static void main(String[] x) {
        Random rnd = new Random(1);
        long[] a = new long[L * 8], b = new long[L * 8], r = new long[L * 8];
        BigInteger[] av = new BigInteger[8], bv = new BigInteger[8];
        for (int lane = 0; lane < 8; lane++) {
            av[lane] = new BigInteger(253, rnd).mod(P); bv[lane] = new BigInteger(253, rnd).mod(P);
            long[] al = limbs(av[lane]), bl = limbs(bv[lane]);
            for (int i = 0; i < L; i++) { a[i * 8 + lane] = al[i]; b[i * 8 + lane] = bl[i]; }
        }
        mulU(a, b, r);
        BigInteger rinv = R.modInverse(P);
        for (int lane = 0; lane < 8; lane++) {
            long[] rl = new long[L];
            for (int i = 0; i < L; i++) rl[i] = r[i * 8 + lane];
            BigInteger got = value(rl).mod(P);
            BigInteger want = av[lane].multiply(bv[lane]).multiply(rinv).mod(P);
            if (!got.equals(want)) { System.out.println("MISMATCH lane " + lane); return; }
        }
        System.out.println("correct");
        // throughput: independent chains r = a*r, 4 interleaved groups to hide latency
        long[][] rs = new long[4][L * 8];
        for (int g = 0; g < 4; g++) System.arraycopy(b, 0, rs[g], 0, L * 8);
        int iters = 2_000_000;
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int it = 0; it < iters; it++) for (int g = 0; g < 4; g++) mulU(a, rs[g], rs[g]);
            long dt = System.nanoTime() - t0;
            System.out.printf("%.2f ns per field multiplication (8 lanes x 4 groups)%n", dt / (iters * 32.0));
        }
    }
}
