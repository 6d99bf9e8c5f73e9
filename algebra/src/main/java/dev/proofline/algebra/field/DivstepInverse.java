package dev.proofline.algebra.field;

import java.math.BigInteger;

/**
 * Variable-time inversion modulo an odd prime p by Bernstein and Yang's divsteps ("Fast
 * constant-time gcd computation and modular inversion", 2019), the half-delta variant, run in
 * batches of 62 steps.
 *
 * <p>One divstep maps (delta, f, g), f odd, to (1 - delta, g, (g - f)/2) when delta &gt; 0 and g is
 * odd, and otherwise to (1 + delta, f, (g + (g mod 2) f)/2). Starting from (1/2, p, x), g reaches 0
 * after at most about 2.3 log2(p) steps, and then f = ±1. The steps depend only on the low bits of
 * f and g, so 62 of them are decided on the low 64 bits alone, which yields a 2x2 matrix T with
 * 2^62 (f', g') = T (f, g); T is then applied once to the full-length f and g. Alongside, d and e
 * with f = d x and g = e x (mod p) go through the same T, divided by 2^62 modulo p by adding the
 * multiple of p that clears their low 62 bits. At the end x^-1 = ±d.
 *
 * <p>Numbers are held in n signed 62-bit limbs: limbs 0 .. n-2 in [0, 2^62), the top limb signed.
 * The n is chosen with room for d and e, which grow by at most p a batch and are reduced only once,
 * at the end. A divstep's even-g steps are taken together by counting trailing zeros. Not constant
 * time: for public values only (the MSM's batch inversions of point coordinates).
 *
 * <p>Instances are immutable and thread-safe; each call uses its own scratch arrays.
 */
final class DivstepInverse {

    private static final int BATCH = 62;
    private static final long MASK = (1L << BATCH) - 1;

    private final int words;        // 64-bit words of the field
    private final int n;            // 62-bit limbs
    private final long[] p;         // the modulus in 62-bit limbs
    private final long pInv;        // p^-1 mod 2^64
    /** 2^k p in 62-bit limbs, k = 0 .. K, with |d| < 2^K p at the end of any inversion. */
    private final long[][] pTimes;

    DivstepInverse(BigInteger modulus, int words) {
        if (!modulus.testBit(0) || modulus.signum() <= 0) {
            throw new IllegalArgumentException("modulus must be odd and positive");
        }
        this.words = words;
        // d and e stay below (batches + 1) p in absolute value, and there are at most
        // 2.3 log2(p) / 62 + 1 batches (15 for 381 bits): 8 spare bits hold that growth and the sign.
        this.n = (modulus.bitLength() + 8 + BATCH - 1) / BATCH;
        this.p = new long[n];
        for (int j = 0; j < n; j++) {
            p[j] = modulus.shiftRight(BATCH * j).longValue() & MASK;
        }
        this.pInv = modulus.modInverse(BigInteger.ONE.shiftLeft(64)).longValue();
        // |d| < (batches + 1) p, and batches <= 2.3 bits / 62 + 1 (see above): 2^K p bounds it
        int bound = (int) (2.3 * modulus.bitLength() / BATCH) + 3;
        int k = 32 - Integer.numberOfLeadingZeros(bound - 1);
        this.pTimes = new long[k + 1][n];
        for (int i = 0; i <= k; i++) {
            BigInteger m = modulus.shiftLeft(i);
            for (int j = 0; j < n; j++) {
                pTimes[i][j] = m.shiftRight(BATCH * j).longValue() & MASK;
            }
        }
    }

    /**
     * r[ri ..] = a^-1 mod p for a in [1, p) given as little-endian 64-bit words at a[ai ..]; a = 0
     * gives 0. The result is canonical, in [0, p).
     */
    void inverse(long[] a, int ai, long[] r, int ri) {
        long[] f = p.clone();
        long[] g = new long[n];
        toLimbs(a, ai, g);
        if (isZero(g)) {
            java.util.Arrays.fill(r, ri, ri + words, 0);
            return;
        }
        long[] d = new long[n];
        long[] e = new long[n];
        e[0] = 1;
        int delta = 0;              // delta - 1/2 of the paper: delta > 0 is delta2 >= 0
        long[] t = new long[4];
        while (true) {
            delta = divsteps(delta, low64(f), low64(g), t);
            long u = t[0];
            long v = t[1];
            long q = t[2];
            long s = t[3];
            applyToFg(f, g, u, v, q, s);
            applyToDe(d, e, u, v, q, s);
            if (isZero(g)) {
                break;
            }
        }
        // f = ±1 and f = d x: x^-1 = sign(f) d
        if (f[n - 1] < 0) {
            negate(d);
        }
        // d into [0, 2^K p), then 2^k p taken off where it fits, k = K-1 .. 0: into [0, p) in K steps
        // where one p at a time took up to 2^K (the loops after them are a safety net that does not run)
        int top = pTimes.length - 1;
        if (d[n - 1] < 0) {
            addLimbs(d, pTimes[top], 1);
        }
        for (int k = top - 1; k >= 0; k--) {
            if (!lessThan(d, pTimes[k])) {
                addLimbs(d, pTimes[k], -1);
            }
        }
        while (d[n - 1] < 0) {
            addLimbs(d, p, 1);
        }
        while (!lessThan(d, p)) {
            addLimbs(d, p, -1);
        }
        fromLimbs(d, r, ri);
    }

    /**
     * 62 divsteps on the low 64 bits of f (odd) and g; t = (u, v, q, r) with
     * 2^62 f' = u f + v g, 2^62 g' = q f + r g. Returns the new delta - 1/2.
     */
    private static int divsteps(int delta, long f, long g, long[] t) {
        long u = 1;
        long v = 0;
        long q = 0;
        long r = 1;
        int left = BATCH;
        while (true) {
            // the even-g steps at once: g /= 2^z, (u, v) *= 2^z, delta += z
            int z = Long.numberOfTrailingZeros(g | (-1L << left));
            g >>= z;
            u <<= z;
            v <<= z;
            delta += z;
            left -= z;
            if (left == 0) {
                break;
            }
            // g odd
            if (delta >= 0) {
                delta = -delta;
                long nf = g;
                g = (g - f) >> 1;
                f = nf;
                long nq = q - u;
                long nr = r - v;
                u = q << 1;
                v = r << 1;
                q = nq;
                r = nr;
            } else {
                delta++;
                g = (g + f) >> 1;
                q += u;
                r += v;
                u <<= 1;
                v <<= 1;
            }
            left--;
        }
        t[0] = u;
        t[1] = v;
        t[2] = q;
        t[3] = r;
        return delta;
    }

    /** (f, g) = ((u f + v g) / 2^62, (q f + r g) / 2^62), divisions exact. */
    private void applyToFg(long[] f, long[] g, long u, long v, long q, long r) {
        long fh = 0;
        long fl = 0;
        long gh = 0;
        long gl = 0;
        for (int j = 0; j < n; j++) {
            long fj = f[j];
            long gj = g[j];
            // (fh, fl) += u fj + v gj; (gh, gl) += q fj + r gj, signed 128-bit
            long x = u * fj;
            long nl = fl + x;
            fh += Math.multiplyHigh(u, fj) + (Long.compareUnsigned(nl, fl) < 0 ? 1 : 0);
            x = v * gj;
            fl = nl + x;
            fh += Math.multiplyHigh(v, gj) + (Long.compareUnsigned(fl, nl) < 0 ? 1 : 0);
            x = q * fj;
            nl = gl + x;
            gh += Math.multiplyHigh(q, fj) + (Long.compareUnsigned(nl, gl) < 0 ? 1 : 0);
            x = r * gj;
            gl = nl + x;
            gh += Math.multiplyHigh(r, gj) + (Long.compareUnsigned(gl, nl) < 0 ? 1 : 0);
            if (j > 0) {
                f[j - 1] = fl & MASK;
                g[j - 1] = gl & MASK;
            }
            // (h, l) >>= 62, arithmetic
            fl = (fl >>> BATCH) | (fh << (64 - BATCH));
            fh >>= BATCH;
            gl = (gl >>> BATCH) | (gh << (64 - BATCH));
            gh >>= BATCH;
        }
        f[n - 1] = fl;
        g[n - 1] = gl;
    }

    /** (d, e) = ((u d + v e) / 2^62, (q d + r e) / 2^62) mod p, up to multiples of p. */
    private void applyToDe(long[] d, long[] e, long u, long v, long q, long r) {
        long md = (-(u * d[0] + v * e[0]) * pInv) & MASK;
        long me = (-(q * d[0] + r * e[0]) * pInv) & MASK;
        long dh = 0;
        long dl = 0;
        long eh = 0;
        long el = 0;
        for (int j = 0; j < n; j++) {
            long dj = d[j];
            long ej = e[j];
            long pj = p[j];
            long x = u * dj;
            long nl = dl + x;
            dh += Math.multiplyHigh(u, dj) + (Long.compareUnsigned(nl, dl) < 0 ? 1 : 0);
            x = v * ej;
            dl = nl + x;
            dh += Math.multiplyHigh(v, ej) + (Long.compareUnsigned(dl, nl) < 0 ? 1 : 0);
            x = md * pj;
            nl = dl + x;
            dh += Math.multiplyHigh(md, pj) + (Long.compareUnsigned(nl, dl) < 0 ? 1 : 0);
            dl = nl;
            x = q * dj;
            nl = el + x;
            eh += Math.multiplyHigh(q, dj) + (Long.compareUnsigned(nl, el) < 0 ? 1 : 0);
            x = r * ej;
            el = nl + x;
            eh += Math.multiplyHigh(r, ej) + (Long.compareUnsigned(el, nl) < 0 ? 1 : 0);
            x = me * pj;
            nl = el + x;
            eh += Math.multiplyHigh(me, pj) + (Long.compareUnsigned(nl, el) < 0 ? 1 : 0);
            el = nl;
            if (j > 0) {
                d[j - 1] = dl & MASK;
                e[j - 1] = el & MASK;
            }
            dl = (dl >>> BATCH) | (dh << (64 - BATCH));
            dh >>= BATCH;
            el = (el >>> BATCH) | (eh << (64 - BATCH));
            eh >>= BATCH;
        }
        d[n - 1] = dl;
        e[n - 1] = el;
    }

    /** x += sign m, sign = ±1, m non-negative in 62-bit limbs. */
    private void addLimbs(long[] x, long[] m, int sign) {
        long c = 0;
        for (int j = 0; j < n - 1; j++) {
            long s = x[j] + sign * m[j] + c;
            x[j] = s & MASK;
            c = s >> BATCH;
        }
        x[n - 1] += sign * m[n - 1] + c;
    }

    private void negate(long[] x) {
        long c = 0;
        for (int j = 0; j < n - 1; j++) {
            long s = -x[j] + c;
            x[j] = s & MASK;
            c = s >> BATCH;
        }
        x[n - 1] = -x[n - 1] + c;
    }

    /** Whether x &lt; m, for x, m &gt;= 0 in 62-bit limbs. */
    private boolean lessThan(long[] x, long[] m) {
        for (int j = n - 1; j >= 0; j--) {
            if (x[j] != m[j]) {
                return x[j] < m[j];
            }
        }
        return false;
    }

    private boolean isZero(long[] x) {
        long or = 0;
        for (int j = 0; j < n; j++) {
            or |= x[j];
        }
        return or == 0;
    }

    private static long low64(long[] x) {
        return x[0] | (x[1] << BATCH);
    }

    /** 64-bit words to 62-bit limbs (non-negative). */
    private void toLimbs(long[] a, int ai, long[] out) {
        for (int j = 0; j < n; j++) {
            int bit = BATCH * j;
            int w = bit >>> 6;
            int off = bit & 63;
            long limb = 0;
            if (w < words) {
                limb = a[ai + w] >>> off;
                if (off > 64 - BATCH && w + 1 < words) {
                    limb |= a[ai + w + 1] << (64 - off);
                }
            }
            out[j] = limb & MASK;
        }
    }

    /** 62-bit limbs of a value in [0, p) to 64-bit words. */
    private void fromLimbs(long[] x, long[] r, int ri) {
        long buf = 0;
        int bits = 0;
        int k = 0;
        for (int j = 0; j < n && k < words; j++) {
            long limb = x[j];
            if (bits + BATCH >= 64) {
                r[ri + k++] = buf | (limb << bits);
                buf = limb >>> (64 - bits);
                bits = bits + BATCH - 64;
            } else {
                buf |= limb << bits;
                bits += BATCH;
            }
        }
        if (k < words) {
            r[ri + k++] = buf;
        }
        while (k < words) {
            r[ri + k++] = 0;
        }
    }
}
