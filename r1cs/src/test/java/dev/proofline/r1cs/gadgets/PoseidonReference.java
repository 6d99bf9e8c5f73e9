package dev.proofline.r1cs.gadgets;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports of the Poseidon reference implementation's parameter checks, for the tests: the round
 * numbers of {@code calc_round_numbers.py} and the MDS matrix checks of
 * {@code generate_parameters_grain.sage} (algorithms 1 to 3: no invariant subspace trails), over
 * GF(p) with BigInteger arithmetic.
 */
final class PoseidonReference {

    private PoseidonReference() {
    }

    // ---------------------------------------------------------------- round numbers

    /**
     * {@code find_FD_round_numbers(p, t, alpha, M, sbox cost, security_margin = True)}: the (RF, RP)
     * of least S-box count t RF + RP that satisfies the security inequalities, with RF + 2 and RP
     * raised by 7.5% (rounded up). Faithful to the script, including its loop, in which the raised
     * RP carries over to the larger RF candidates of the same RP.
     */
    static int[] roundNumbers(BigInteger p, int t, int alpha, int m) {
        int rp = 0;
        int rf = 0;
        double minCost = Double.POSITIVE_INFINITY;
        int maxCostRf = 0;
        for (int rpStart = 1; rpStart < 500; rpStart++) {
            int rpT = rpStart;
            for (int rfT = 4; rfT < 100; rfT++) {
                if (rfT % 2 == 0 && secure(p, t, rfT, rpT, alpha, m)) {
                    int rfM = rfT + 2;
                    rpT = (int) Math.ceil(rpT * 1.075);
                    int cost = t * rfM + rpT;
                    if (cost < minCost || (cost == minCost && rfM < maxCostRf)) {
                        rp = rpT;
                        rf = rfM;
                        minCost = cost;
                        maxCostRf = rf;
                    }
                }
            }
        }
        return new int[] {rf, rp};
    }

    /** {@code sat_inequiv_alpha}: statistical, interpolation, three Groebner bounds, and Groebner 4 (eprint 2023/537). */
    static boolean secure(BigInteger p, int t, int rf, int rp, int alpha, int m) {
        double log2p = log2(p);
        int n = (int) Math.ceil(log2p);
        double la2 = Math.log(2) / Math.log(alpha);
        double rf1 = m <= Math.floor(log2p - (alpha - 1) / 2.0) * (t + 1) ? 6 : 10;
        double rf2 = 1 + Math.ceil(la2 * Math.min(m, n)) + Math.ceil(Math.log(t) / Math.log(alpha)) - rp;
        double rf3 = la2 * Math.min(m, log2p) - rp;
        double rf4 = t - 1 + la2 * Math.min(m / (double) (t + 1), log2p / 2) - rp;
        double rf5 = (t - 2 + m / (2 * (Math.log(alpha) / Math.log(2))) - rp) / (double) (t - 1);
        double max = Math.max(Math.max(Math.ceil(rf1), Math.ceil(rf2)),
                Math.max(Math.max(Math.ceil(rf3), Math.ceil(rf4)), Math.ceil(rf5)));
        if (rf < max) {
            return false;
        }
        long rTemp = t / 3;
        long over = (long) (rf - 1) * t + rp + rTemp + rTemp * (rf / 2) + rp + alpha;
        long under = rTemp * (rf / 2) + rp + alpha;
        double binomLog = log2Factorial(over) - log2Factorial(under) - log2Factorial(over - under);
        return Math.ceil(2 * binomLog) >= m;
    }

    private static final double[] LOG2_FACTORIAL = new double[1 << 14];

    static {
        for (int i = 1; i < LOG2_FACTORIAL.length; i++) {
            LOG2_FACTORIAL[i] = LOG2_FACTORIAL[i - 1] + Math.log(i) / Math.log(2);
        }
    }

    /** log2(n!): a table, then Stirling's series (the script's raised RP can grow large). */
    private static double log2Factorial(long n) {
        if (n < LOG2_FACTORIAL.length) {
            return LOG2_FACTORIAL[(int) n];
        }
        double x = n;
        return (x * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI * x) + 1 / (12 * x) - 1 / (360 * x * x * x))
                / Math.log(2);
    }

    private static double log2(BigInteger x) {
        int shift = Math.max(0, x.bitLength() - 60);
        return shift + Math.log(x.shiftRight(shift).doubleValue()) / Math.log(2);
    }

    // ---------------------------------------------------------------- MDS checks

    /** The matrix passes algorithms 1, 2 and 3 (the reference redraws it otherwise). */
    static boolean mdsIsSecure(BigInteger[][] mds, BigInteger p) {
        return new Gf(p).algorithm1(mds) && new Gf(p).algorithm2(mds) && new Gf(p).algorithm3(mds);
    }

    /** Linear algebra and polynomials over GF(p). */
    static final class Gf {
        final BigInteger p;

        Gf(BigInteger p) {
            this.p = p;
        }

        BigInteger[][] mul(BigInteger[][] a, BigInteger[][] b) {
            int t = a.length;
            BigInteger[][] r = new BigInteger[t][t];
            for (int i = 0; i < t; i++) {
                for (int j = 0; j < t; j++) {
                    BigInteger s = BigInteger.ZERO;
                    for (int k = 0; k < t; k++) {
                        s = s.add(a[i][k].multiply(b[k][j]));
                    }
                    r[i][j] = s.mod(p);
                }
            }
            return r;
        }

        BigInteger[] mul(BigInteger[][] a, BigInteger[] v) {
            BigInteger[] r = new BigInteger[a.length];
            for (int i = 0; i < a.length; i++) {
                BigInteger s = BigInteger.ZERO;
                for (int k = 0; k < v.length; k++) {
                    s = s.add(a[i][k].multiply(v[k]));
                }
                r[i] = s.mod(p);
            }
            return r;
        }

        static BigInteger[] unit(int t, int i) {
            BigInteger[] v = new BigInteger[t];
            java.util.Arrays.fill(v, BigInteger.ZERO);
            v[i] = BigInteger.ONE;
            return v;
        }

        /** A basis of {x : rows x = 0}. */
        List<BigInteger[]> kernel(List<BigInteger[]> rows, int t) {
            List<BigInteger[]> a = new ArrayList<>();
            for (BigInteger[] r : rows) {
                a.add(r.clone());
            }
            int[] pivotCol = new int[t];
            int rank = 0;
            for (int col = 0; col < t && rank < a.size(); col++) {
                int sel = -1;
                for (int i = rank; i < a.size(); i++) {
                    if (a.get(i)[col].signum() != 0) {
                        sel = i;
                        break;
                    }
                }
                if (sel < 0) {
                    continue;
                }
                java.util.Collections.swap(a, rank, sel);
                BigInteger[] pr = a.get(rank);
                BigInteger inv = pr[col].modInverse(p);
                for (int j = 0; j < t; j++) {
                    pr[j] = pr[j].multiply(inv).mod(p);
                }
                for (int i = 0; i < a.size(); i++) {
                    BigInteger[] r = a.get(i);
                    if (i != rank && r[col].signum() != 0) {
                        BigInteger f = r[col];
                        for (int j = 0; j < t; j++) {
                            r[j] = r[j].subtract(f.multiply(pr[j])).mod(p);
                        }
                    }
                }
                pivotCol[rank++] = col;
            }
            boolean[] isPivot = new boolean[t];
            for (int i = 0; i < rank; i++) {
                isPivot[pivotCol[i]] = true;
            }
            List<BigInteger[]> basis = new ArrayList<>();
            for (int free = 0; free < t; free++) {
                if (isPivot[free]) {
                    continue;
                }
                BigInteger[] v = unit(t, free);
                for (int i = 0; i < rank; i++) {
                    v[pivotCol[i]] = a.get(i)[free].negate().mod(p);
                }
                basis.add(v);
            }
            return basis;
        }

        /** The characteristic polynomial det(x I - A), coefficients from x^0 (Faddeev-LeVerrier). */
        BigInteger[] charpoly(BigInteger[][] a) {
            int t = a.length;
            BigInteger[] c = new BigInteger[t + 1];
            c[t] = BigInteger.ONE;
            BigInteger[][] mk = new BigInteger[t][t];
            for (BigInteger[] row : mk) {
                java.util.Arrays.fill(row, BigInteger.ZERO);
            }
            for (int k = 1; k <= t; k++) {
                for (int i = 0; i < t; i++) {
                    mk[i][i] = mk[i][i].add(c[t - k + 1]).mod(p);
                }
                mk = mul(a, mk);
                BigInteger tr = BigInteger.ZERO;
                for (int i = 0; i < t; i++) {
                    tr = tr.add(mk[i][i]);
                }
                c[t - k] = tr.negate().multiply(BigInteger.valueOf(k).modInverse(p)).mod(p);
            }
            return c;
        }

        // polynomials: BigInteger[] from x^0, no trailing zeros (the zero polynomial is empty)

        BigInteger[] trim(BigInteger[] a) {
            int n = a.length;
            while (n > 0 && a[n - 1].signum() == 0) {
                n--;
            }
            return java.util.Arrays.copyOf(a, n);
        }

        BigInteger[] rem(BigInteger[] a, BigInteger[] f) {
            BigInteger[] r = trim(a.clone());
            int df = f.length - 1;
            BigInteger inv = f[df].modInverse(p);
            while (r.length - 1 >= df) {
                int shift = r.length - 1 - df;
                BigInteger q = r[r.length - 1].multiply(inv).mod(p);
                for (int i = 0; i <= df; i++) {
                    r[shift + i] = r[shift + i].subtract(q.multiply(f[i])).mod(p);
                }
                r = trim(r);
            }
            return r;
        }

        BigInteger[] mulMod(BigInteger[] a, BigInteger[] b, BigInteger[] f) {
            if (a.length == 0 || b.length == 0) {
                return new BigInteger[0];
            }
            BigInteger[] r = new BigInteger[a.length + b.length - 1];
            java.util.Arrays.fill(r, BigInteger.ZERO);
            for (int i = 0; i < a.length; i++) {
                for (int j = 0; j < b.length; j++) {
                    r[i + j] = r[i + j].add(a[i].multiply(b[j]));
                }
            }
            for (int i = 0; i < r.length; i++) {
                r[i] = r[i].mod(p);
            }
            return rem(r, f);
        }

        BigInteger[] powMod(BigInteger[] a, BigInteger e, BigInteger[] f) {
            BigInteger[] r = rem(new BigInteger[] {BigInteger.ONE}, f);
            for (int i = e.bitLength() - 1; i >= 0; i--) {
                r = mulMod(r, r, f);
                if (e.testBit(i)) {
                    r = mulMod(r, a, f);
                }
            }
            return r;
        }

        BigInteger[] gcd(BigInteger[] a, BigInteger[] b) {
            a = trim(a);
            b = trim(b);
            while (b.length > 0) {
                BigInteger[] r = rem(a, b);
                a = b;
                b = r;
            }
            return monic(a);
        }

        BigInteger[] monic(BigInteger[] a) {
            if (a.length == 0) {
                return a;
            }
            BigInteger inv = a[a.length - 1].modInverse(p);
            BigInteger[] r = new BigInteger[a.length];
            for (int i = 0; i < a.length; i++) {
                r[i] = a[i].multiply(inv).mod(p);
            }
            return r;
        }

        BigInteger[] sub(BigInteger[] a, BigInteger[] b) {
            BigInteger[] r = new BigInteger[Math.max(a.length, b.length)];
            for (int i = 0; i < r.length; i++) {
                BigInteger x = i < a.length ? a[i] : BigInteger.ZERO;
                BigInteger y = i < b.length ? b[i] : BigInteger.ZERO;
                r[i] = x.subtract(y).mod(p);
            }
            return trim(r);
        }

        BigInteger[] div(BigInteger[] a, BigInteger[] b) {
            BigInteger[] r = trim(a.clone());
            b = monic(b);
            int db = b.length - 1;
            BigInteger[] q = new BigInteger[Math.max(1, r.length - db)];
            java.util.Arrays.fill(q, BigInteger.ZERO);
            while (r.length - 1 >= db) {
                int shift = r.length - 1 - db;
                BigInteger c = r[r.length - 1];
                q[shift] = c;
                for (int i = 0; i <= db; i++) {
                    r[shift + i] = r[shift + i].subtract(c.multiply(b[i])).mod(p);
                }
                r = trim(r);
            }
            return trim(q);
        }

        /** The roots in GF(p) of f: gcd(f, x^p - x), split by Cantor-Zassenhaus. */
        List<BigInteger> roots(BigInteger[] f) {
            f = monic(trim(f));
            List<BigInteger> out = new ArrayList<>();
            if (f.length < 2) {
                return out;
            }
            BigInteger[] x = {BigInteger.ZERO, BigInteger.ONE};
            BigInteger[] xp = powMod(x, p, f);
            split(gcd(f, sub(xp, rem(x, f))), out);
            return out;
        }

        private void split(BigInteger[] g, List<BigInteger> out) {
            int d = g.length - 1;
            if (d < 1) {
                return;
            }
            if (d == 1) {
                out.add(g[0].negate().mod(p));
                return;
            }
            BigInteger e = p.subtract(BigInteger.ONE).shiftRight(1);
            for (long a = 1;; a++) {
                BigInteger[] h = sub(powMod(new BigInteger[] {BigInteger.valueOf(a), BigInteger.ONE}, e, g),
                        new BigInteger[] {BigInteger.ONE});
                BigInteger[] u = gcd(g, h);
                if (u.length - 1 > 0 && u.length - 1 < d) {
                    split(u, out);
                    split(div(g, u), out);
                    return;
                }
            }
        }

        /** The reference's algorithm_1. */
        boolean algorithm1(BigInteger[][] m) {
            int t = m.length;
            List<BigInteger[][]> pow = new ArrayList<>();
            pow.add(null);
            pow.add(m);
            for (int i = 2; i <= t; i++) {
                pow.add(mul(pow.get(i - 1), m));
            }
            for (int i = 1; i <= t - 1; i++) {
                BigInteger[][] a = pow.get(i);
                boolean scalar = true;
                for (int r = 0; r < t && scalar; r++) {
                    for (int c = 0; c < t; c++) {
                        if (!a[r][c].equals(r == c ? a[0][0] : BigInteger.ZERO)) {
                            scalar = false;
                            break;
                        }
                    }
                }
                if (scalar) {
                    return false;
                }
                // S: x_0 = 0 and row 0 of M^k . x = 0 for k = 1 .. i-1
                List<BigInteger[]> sRows = new ArrayList<>();
                sRows.add(unit(t, 0));
                for (int k = 1; k < i; k++) {
                    sRows.add(pow.get(k)[0].clone());
                }
                // an eigenvector of M^i (eigenvalue in GF(p)) inside S is an invariant subspace
                for (BigInteger lambda : roots(charpoly(a))) {
                    List<BigInteger[]> rows = new ArrayList<>(sRows);
                    for (int r = 0; r < t; r++) {
                        BigInteger[] row = a[r].clone();
                        row[r] = row[r].subtract(lambda).mod(p);
                        rows.add(row);
                    }
                    if (!kernel(rows, t).isEmpty()) {
                        return false;
                    }
                }
                // S mapped into itself by M^j
                List<BigInteger[]> sBasis = kernel(sRows, t);
                for (int j = 1; j <= i; j++) {
                    boolean inside = true;
                    for (BigInteger[] v : sBasis) {
                        BigInteger[] w = mul(pow.get(j), v);
                        for (BigInteger[] row : sRows) {
                            BigInteger dot = BigInteger.ZERO;
                            for (int k = 0; k < t; k++) {
                                dot = dot.add(row[k].multiply(w[k]));
                            }
                            if (dot.mod(p).signum() != 0) {
                                inside = false;
                                break;
                            }
                        }
                        if (!inside) {
                            break;
                        }
                    }
                    if (inside) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** The reference's algorithm_2 (s = 1): e_0 generates the whole space under A. */
        boolean algorithm2(BigInteger[][] a) {
            int t = a.length;
            List<BigInteger[]> echelon = new ArrayList<>();
            List<Integer> pivots = new ArrayList<>();
            BigInteger[] v = unit(t, 0);
            insert(echelon, pivots, v);
            while (true) {
                int before = echelon.size();
                v = mul(a, v);
                insert(echelon, pivots, v);
                if (echelon.size() == t) {
                    return true;
                }
                if (echelon.size() <= before) {
                    return false;
                }
            }
        }

        /** Adds v to a row-echelon basis if independent. */
        private void insert(List<BigInteger[]> rows, List<Integer> pivots, BigInteger[] v) {
            BigInteger[] w = v.clone();
            for (int i = 0; i < rows.size(); i++) {
                int pc = pivots.get(i);
                if (w[pc].signum() != 0) {
                    BigInteger f = w[pc];
                    BigInteger[] r = rows.get(i);
                    for (int k = 0; k < w.length; k++) {
                        w[k] = w[k].subtract(f.multiply(r[k])).mod(p);
                    }
                }
            }
            for (int k = 0; k < w.length; k++) {
                if (w[k].signum() != 0) {
                    BigInteger inv = w[k].modInverse(p);
                    for (int j = 0; j < w.length; j++) {
                        w[j] = w[j].multiply(inv).mod(p);
                    }
                    rows.add(w);
                    pivots.add(k);
                    return;
                }
            }
        }

        /** The reference's algorithm_3: algorithm 2 for M^r, r = 2 .. 4t. */
        boolean algorithm3(BigInteger[][] m) {
            int t = m.length;
            BigInteger[][] a = mul(m, m);
            for (int r = 2; r <= 4 * t; r++) {
                if (!algorithm2(a)) {
                    return false;
                }
                a = mul(a, m);
            }
            return true;
        }
    }
}
