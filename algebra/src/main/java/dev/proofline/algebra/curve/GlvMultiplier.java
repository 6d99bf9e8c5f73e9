package dev.proofline.algebra.curve;

import java.math.BigInteger;

/**
 * Scalar multiplication with an endomorphism (Gallant-Lambert-Vanstone), for one thread: phi acts on
 * the subgroup as [lambda], so k P = k1 P + k2 phi(P) with k = k1 + k2 lambda (mod r) and k1, k2 about
 * half the bits of r (Babai rounding against a short basis of the lattice {(a, b) : a + b lambda = 0
 * mod r}, as in Hankerson-Menezes-Vanstone "Guide to ECC" section 3.5). Both halves run in one
 * width-5 NAF loop (Straus-Shamir), so a 255-bit scalar costs about 128 doublings instead of 256.
 * phi is applied {@code applications} times (BLS12-381 G2: psi twice, whose eigenvalue x^2 has half
 * the bits of r where psi's own, x, has a quarter). Not constant time: the scalars here are public
 * (roots of unity, domain sizes), never secrets. Points outside the subgroup get wrong results.
 */
public final class GlvMultiplier {

    private static final int WINDOW = 5;
    private static final int ENTRIES = 1 << (WINDOW - 2);

    /** A decomposed, recoded scalar: the NAF digits of |k1| and |k2| and their signs; shareable. */
    public record Recoded(byte[] naf1, byte[] naf2, boolean negative1, boolean negative2) {

        /** Overwrites the digits (for a secret scalar, once it is no longer needed). */
        public void wipe() {
            java.util.Arrays.fill(naf1, (byte) 0);
            java.util.Arrays.fill(naf2, (byte) 0);
        }
    }

    /** The window of {@link #recodeRegular}: digits odd, below 2^4 in absolute value, tables of 8 points. */
    public static final int REGULAR_WINDOW = 4;

    /**
     * A scalar decomposed into two odd halves and recoded into a fixed number of windows, every digit
     * odd (none zero), so that multiplications by different scalars run the same additions in the same
     * order: what {@code LaneMultiplier} needs to run eight of them in lockstep. k1 = sum digits1[i]
     * 2^(4i) (the top digit positive), negated when negative1; likewise k2; k = k1 + k2 lambda (mod r).
     */
    public record Regular(BigInteger k, byte[] digits1, byte[] digits2, boolean negative1, boolean negative2) {

        /** Overwrites the digits (for a secret scalar, once it is no longer needed). */
        public void wipe() {
            java.util.Arrays.fill(digits1, (byte) 0);
            java.util.Arrays.fill(digits2, (byte) 0);
        }
    }

    private final PointArithmetic pa;
    private final EndomorphismSubgroupCheck map;
    private final int applications;
    private final BigInteger r;
    private final BigInteger lambda;
    // the short basis (a1, b1), (a2, b2)
    private final BigInteger a1;
    private final BigInteger b1;
    private final BigInteger a2;
    private final BigInteger b2;
    private final BigInteger orientation;
    private final int regularWindows;
    private final int jw;
    private final long[] t1;
    private final long[] t2;
    private final long[] acc;
    private final long[] tmp;

    /**
     * @param map          phi, as the subgroup check applies it (Jacobian)
     * @param applications how many times phi is applied (1 or 2)
     * @param lambda       the eigenvalue of phi applied that many times, on the subgroup of order r
     */
    public GlvMultiplier(EndomorphismSubgroupCheck map, int applications, BigInteger lambda) {
        if (applications < 1 || applications > 2) {
            throw new IllegalArgumentException("applications: " + applications);
        }
        this.map = map;
        this.pa = map.arithmetic();
        this.applications = applications;
        this.r = map.curve().order();
        this.lambda = lambda.mod(r);
        BigInteger[][] basis = shortBasis(r, this.lambda);
        this.a1 = basis[0][0];
        this.b1 = basis[0][1];
        this.a2 = basis[1][0];
        this.b2 = basis[1][1];
        this.orientation = BigInteger.valueOf(a1.multiply(b2).subtract(a2.multiply(b1)).signum());   // det = +-r
        // |k1| <= (|a1| + |a2|) / 2 after Babai rounding, and one basis vector more after the parity fix
        BigInteger bound = a1.abs().add(a2.abs()).max(b1.abs().add(b2.abs())).shiftLeft(1);
        this.regularWindows = (bound.bitLength() + REGULAR_WINDOW) / REGULAR_WINDOW;
        this.jw = pa.curve().jacobianWidth();
        this.t1 = new long[ENTRIES * jw];
        this.t2 = new long[ENTRIES * jw];
        this.acc = new long[jw];
        this.tmp = new long[jw];
    }

    public PointArithmetic arithmetic() {
        return pa;
    }

    /** phi, as this multiplier applies it. */
    public EndomorphismSubgroupCheck map() {
        return map;
    }

    /** How many times phi is applied for the second half. */
    public int applications() {
        return applications;
    }

    /** The windows of every {@link #recodeRegular} recoding of this multiplier. */
    public int regularWindows() {
        return regularWindows;
    }

    /**
     * Two short vectors (a, b) with a + b lambda = 0 mod r: the basis (r, 0), (-lambda, 1) of that lattice
     * reduced by Lagrange-Gauss (subtract the rounded projection of the longer vector on the shorter
     * until it no longer shortens), which gives a shortest basis for any lambda.
     */
    static BigInteger[][] shortBasis(BigInteger r, BigInteger lambda) {
        BigInteger[] u = {r, BigInteger.ZERO};
        BigInteger[] v = {lambda.negate(), BigInteger.ONE};
        while (true) {
            if (norm(v).compareTo(norm(u)) < 0) {
                BigInteger[] t = u;
                u = v;
                v = t;
            }
            BigInteger m = roundedDivide(u[0].multiply(v[0]).add(u[1].multiply(v[1])), norm(u));
            if (m.signum() == 0) {
                return new BigInteger[][] {u, v};
            }
            v = new BigInteger[] {v[0].subtract(m.multiply(u[0])), v[1].subtract(m.multiply(u[1]))};
        }
    }

    private static BigInteger norm(BigInteger[] v) {
        return v[0].multiply(v[0]).add(v[1].multiply(v[1]));
    }

    /** k1, k2 with k = k1 + k2 lambda (mod r), each about half of r's bits. */
    public BigInteger[] decompose(BigInteger k) {
        BigInteger e = k.mod(r);
        // (k, 0) = c1 v1 + c2 v2 over the rationals, rounded: c1 = k b2 / det, c2 = -k b1 / det
        BigInteger c1 = roundedDivide(b2.multiply(e).multiply(orientation), r);
        BigInteger c2 = roundedDivide(b1.multiply(e).negate().multiply(orientation), r);
        BigInteger k1 = e.subtract(c1.multiply(a1)).subtract(c2.multiply(a2));
        BigInteger k2 = c1.multiply(b1).add(c2.multiply(b2)).negate();
        return new BigInteger[] {k1, k2};
    }

    private static BigInteger roundedDivide(BigInteger a, BigInteger n) {
        BigInteger[] qr = a.divideAndRemainder(n);
        BigInteger q = qr[0];
        BigInteger twice = qr[1].shiftLeft(1);
        if (twice.compareTo(n) > 0) {
            q = q.add(BigInteger.ONE);
        } else if (twice.negate().compareTo(n) > 0) {
            q = q.subtract(BigInteger.ONE);
        }
        return q;
    }

    /** The scalar decomposed and recoded once, for many points. */
    public Recoded recode(BigInteger k) {
        BigInteger[] parts = decompose(k);
        return new Recoded(naf(parts[0].abs()), naf(parts[1].abs()), parts[0].signum() < 0, parts[1].signum() < 0);
    }

    /**
     * The scalar decomposed, both halves made odd and recoded into {@link #regularWindows} odd digits each.
     * A half is made odd by adding a short basis vector (a, b) to (k1, k2), which leaves k1 + k2 lambda
     * unchanged since a + b lambda = 0 (mod r); the basis has odd determinant (+-r), so one of (a1, b1),
     * (a2, b2) and their sum has each parity pattern, and some sum of them makes both halves odd.
     */
    public Regular recodeRegular(BigInteger k) {
        BigInteger[] parts = decompose(k);
        BigInteger k1 = parts[0];
        BigInteger k2 = parts[1];
        BigInteger[][] shifts = {{a1, b1}, {a2, b2}, {a1.add(a2), b1.add(b2)}};
        for (int i = 0; i < shifts.length && !(k1.testBit(0) && k2.testBit(0)); i++) {
            if (k1.add(shifts[i][0]).testBit(0) && k2.add(shifts[i][1]).testBit(0)) {
                k1 = k1.add(shifts[i][0]);
                k2 = k2.add(shifts[i][1]);
            }
        }
        return new Regular(k, regular(k1.abs()), regular(k2.abs()), k1.signum() < 0, k2.signum() < 0);
    }

    /**
     * Odd e as regularWindows odd digits d_i (|d_i| < 2^w), e = sum d_i 2^(w i), the top one positive.
     * Taking d_i = (e_i mod 2^(w+1)) - 2^w and e_(i+1) = (e_i - d_i) / 2^w, which is (e_i >> w) | 1, the
     * digits are windows of e's bits: d_i = (bits w i .. w i + w of e, lowest set) - 2^w, and the top one
     * is the bits above, lowest set.
     */
    private byte[] regular(BigInteger e) {
        int w = REGULAR_WINDOW;
        if (e.signum() <= 0 || !e.testBit(0) || e.bitLength() > w * regularWindows) {
            throw new IllegalStateException("half scalar not odd or longer than " + regularWindows + " windows");
        }
        long[] words = new long[(w * regularWindows + w + 63) / 64 + 1];
        for (int i = 0; i < words.length; i++) {
            words[i] = e.shiftRight(64 * i).longValue();
        }
        byte[] d = new byte[regularWindows];
        for (int i = 0; i < regularWindows - 1; i++) {
            d[i] = (byte) ((bits(words, w * i, w + 1) | 1) - (1 << w));
        }
        long top = bits(words, w * (regularWindows - 1), 64 - w) | 1;
        if (top >= 1 << w) {
            throw new IllegalStateException("half scalar longer than " + regularWindows + " windows");
        }
        d[regularWindows - 1] = (byte) top;
        return d;
    }

    /** The len (below 64) bits of the little-endian words from bit position pos. */
    private static long bits(long[] words, int pos, int len) {
        int word = pos >>> 6;
        int shift = pos & 63;
        long v = words[word] >>> shift;
        if (shift != 0 && word + 1 < words.length) {
            v |= words[word + 1] << (64 - shift);
        }
        return v & ((1L << len) - 1);
    }

    private static byte[] naf(BigInteger k) {
        int[] digits = ScalarMultiplier.wnaf(k, WINDOW);
        byte[] out = new byte[digits.length];
        for (int i = 0; i < digits.length; i++) {
            out[i] = (byte) digits[i];
        }
        return out;
    }

    /** r = k p, p and r Jacobian, p in the subgroup; r may be p. */
    public void mul(long[] p, int pi, BigInteger k, long[] r, int ri) {
        mul(p, pi, recode(k), r, ri);
    }

    /** r = k p for a scalar recoded by {@link #recode}; p and r Jacobian, p in the subgroup; r may be p. */
    public void mul(long[] p, int pi, Recoded k, long[] r, int ri) {
        if (pa.isInfinity(p, pi)) {
            pa.setInfinity(r, ri);
            return;
        }
        // t1[j] = (2j + 1) (+-p), t2[j] = phi(t1[j]) (negated for a negative k2, relative to k1's sign)
        if (k.negative1()) {
            pa.neg(p, pi, t1, 0);
        } else {
            pa.copy(p, pi, t1, 0);
        }
        pa.dbl(t1, 0, tmp, 0);
        for (int j = 1; j < ENTRIES; j++) {
            pa.add(t1, (j - 1) * jw, tmp, 0, t1, j * jw);
        }
        boolean flip = k.negative1() != k.negative2();
        for (int j = 0; j < ENTRIES; j++) {
            map.endomorphism(t1, j * jw, t2, j * jw);
            if (applications == 2) {
                map.endomorphism(t2, j * jw, t2, j * jw);
            }
            if (flip) {
                pa.neg(t2, j * jw, t2, j * jw);
            }
        }
        byte[] n1 = k.naf1();
        byte[] n2 = k.naf2();
        int top = Math.max(n1.length, n2.length) - 1;
        while (top >= 0 && digit(n1, top) == 0 && digit(n2, top) == 0) {
            top--;
        }
        pa.setInfinity(acc, 0);
        for (int i = top; i >= 0; i--) {
            pa.dbl(acc, 0, acc, 0);
            addDigit(t1, digit(n1, i));
            addDigit(t2, digit(n2, i));
        }
        pa.copy(acc, 0, r, ri);
    }

    private static int digit(byte[] naf, int i) {
        return i < naf.length ? naf[i] : 0;
    }

    private void addDigit(long[] table, int d) {
        if (d > 0) {
            pa.add(acc, 0, table, ((d - 1) >> 1) * jw, acc, 0);
        } else if (d < 0) {
            pa.neg(table, ((-d - 1) >> 1) * jw, tmp, 0);
            pa.add(acc, 0, tmp, 0, acc, 0);
        }
    }
}
