package dev.proofline.r1cs.gadgets;

import dev.proofline.algebra.field.PrimeField;

/**
 * The partial rounds of a Poseidon permutation as closed-form linear maps, so that the circuit
 * builds each partial round's S-box input directly instead of carrying t growing linear
 * combinations through every round.
 *
 * <p>Let y be the t S-box outputs of the last full round before the partial rounds, x_k the S-box
 * output of partial round k, s^(k) the state before partial round k adds its constants c_k, and
 * L(v) = M (v with v_0 replaced by 0). Then s^(0) = M y and s^(k+1) = L(s^(k) + c_k) + M e_0 x_k, so
 * s^(k) = W^(k) y + sum_{j<k} U_{k-1-j} x_j + K^(k) with W^(0) = M, W^(k+1) = L W^(k),
 * U_0 = M e_0, U_d = L U_{d-1}, K^(0) = 0, K^(k+1) = L(K^(k) + c_k). Partial round k's S-box input
 * is row 0 of s^(k) + c_k; the first full round after them takes all of s^(RP).
 */
final class PoseidonPlan {

    final int t;
    final int rp;
    /** W^(k)[0][i] at 4 (k t + i), k < RP. */
    final long[] w0;
    /** W^(RP)[i][j] at 4 (i t + j). */
    final long[] wEnd;
    /** U_d[i] at 4 (d t + i), d < RP. */
    final long[] u;
    /** K^(k)[0] + c_k[0] at 4k, k < RP. */
    final long[] k0;
    /** K^(RP)[i] at 4i. */
    final long[] kEnd;

    // The native partial rounds in sparse form (see nativePartialRounds); null when a factorization
    // step met a singular block, and the plain rounds are used.
    /** Element 0's constant of each partial round, the others carried forward: at 4k. */
    final long[] kappa;
    /** The carried constants, added after the partial rounds. */
    final long[] gamma;
    /** Per round: a00, then the t-1 entries of row 0, then the t-1 entries of column 0 (2t-1 elements). */
    final long[] sparse;
    /** The (t-1) x (t-1) block of the final diag(1, X). */
    final long[] last;

    PoseidonPlan(PoseidonParameters p) {
        PrimeField fr = p.field();
        t = p.width();
        rp = p.partialRounds();
        int firstPartial = p.fullRounds() / 2;
        long[] m = p.matrix();
        long[] c = p.constants();
        w0 = new long[4 * rp * t];
        wEnd = new long[4 * t * t];
        u = new long[4 * rp * t];
        k0 = new long[4 * rp];
        kEnd = new long[4 * t];

        // columns of W, one t-vector each, and K
        long[][] w = new long[t][];
        for (int i = 0; i < t; i++) {
            w[i] = new long[4 * t];
            for (int r = 0; r < t; r++) {
                System.arraycopy(m, 4 * (r * t + i), w[i], 4 * r, 4);
            }
        }
        long[] k = new long[4 * t];
        long[] tmp = new long[4 * t];
        for (int round = 0; round < rp; round++) {
            int cBase = 4 * (firstPartial + round) * t;
            for (int i = 0; i < t; i++) {
                System.arraycopy(w[i], 0, w0, 4 * (round * t + i), 4);
            }
            fr.add(k, 0, c, cBase, k0, 4 * round);
            for (int i = 0; i < t; i++) {
                apply(fr, m, w[i], tmp);
                long[] s = w[i];
                w[i] = tmp;
                tmp = s;
            }
            for (int i = 0; i < t; i++) {
                fr.add(k, 4 * i, c, cBase + 4 * i, k, 4 * i);
            }
            apply(fr, m, k, tmp);
            long[] s = k;
            k = tmp;
            tmp = s;
        }
        for (int i = 0; i < t; i++) {
            for (int r = 0; r < t; r++) {
                System.arraycopy(w[i], 4 * r, wEnd, 4 * (r * t + i), 4);
            }
        }
        System.arraycopy(k, 0, kEnd, 0, 4 * t);
        // U_0 = M e_0, U_d = L U_{d-1}
        long[] v = new long[4 * t];
        for (int r = 0; r < t; r++) {
            System.arraycopy(m, 4 * (r * t), v, 4 * r, 4);
        }
        for (int d = 0; d < rp; d++) {
            System.arraycopy(v, 0, u, 4 * d * t, 4 * t);
            apply(fr, m, v, tmp);
            long[] s = v;
            v = tmp;
            tmp = s;
        }

        // constants: round k adds c_k; only element 0's (plus what was carried) stays in the round,
        // the rest (0, d + c_k) goes through M into the carry d
        kappa = new long[4 * rp];
        long[] d = new long[4 * t];
        long[] e = new long[4 * t];
        for (int round = 0; round < rp; round++) {
            int cBase = 4 * (firstPartial + round) * t;
            fr.add(d, 0, c, cBase, kappa, 4 * round);
            for (int i = 1; i < t; i++) {
                fr.add(d, 4 * i, c, cBase + 4 * i, d, 4 * i);
            }
            apply(fr, m, d, e);
            long[] s = d;
            d = e;
            e = s;
        }
        gamma = d;
        long[][] factors = factorize(fr, m);
        sparse = factors == null ? null : factors[0];
        last = factors == null ? null : factors[1];
    }

    /**
     * M (x_k) .. M (x_0) with only element 0 changing between the products factors as
     * diag(1, X) A''_RP (x) .. A''_1 (x): A_1 = M; A_k = diag(1, B) A''_k with B the lower-right
     * block of A_k and A''_k = [[a00, a_row], [B^-1 a_col, I]]; A_{k+1} = M diag(1, B). diag(1, B)
     * commutes with anything that changes element 0 only.
     */
    private long[][] factorize(PrimeField fr, long[] m) {
        int w = 2 * t - 1;
        long[] sp = new long[4 * w * rp];
        long[] a = m.clone();
        long[] b = new long[4 * (t - 1) * (t - 1)];
        long[] x = new long[4];
        for (int round = 0; round < rp; round++) {
            for (int i = 1; i < t; i++) {
                System.arraycopy(a, 4 * (i * t + 1), b, 4 * (i - 1) * (t - 1), 4 * (t - 1));
            }
            long[] bInv = invert(fr, b, t - 1);
            if (bInv == null) {
                return null;
            }
            int base = 4 * w * round;
            System.arraycopy(a, 0, sp, base, 4 * t);
            for (int i = 0; i < t - 1; i++) {
                fr.setZero(sp, base + 4 * (t + i));
                for (int j = 0; j < t - 1; j++) {
                    fr.mul(bInv, 4 * (i * (t - 1) + j), a, 4 * ((j + 1) * t), x, 0);
                    fr.add(sp, base + 4 * (t + i), x, 0, sp, base + 4 * (t + i));
                }
            }
            // A = M diag(1, B)
            long[] next = new long[4 * t * t];
            for (int r = 0; r < t; r++) {
                System.arraycopy(m, 4 * (r * t), next, 4 * (r * t), 4);
                for (int col = 1; col < t; col++) {
                    for (int k = 1; k < t; k++) {
                        fr.mul(m, 4 * (r * t + k), b, 4 * ((k - 1) * (t - 1) + col - 1), x, 0);
                        fr.add(next, 4 * (r * t + col), x, 0, next, 4 * (r * t + col));
                    }
                }
            }
            a = next;
        }
        // the last B (of A_{RP+1} = M diag(1, B_RP)) is not needed: the final factor is diag(1, B_RP)
        return new long[][] {sp, b};
    }

    /** The inverse of an n x n matrix (Gauss-Jordan), or null when it is singular. */
    private static long[] invert(PrimeField fr, long[] matrix, int n) {
        long[] a = matrix.clone();
        long[] inv = new long[4 * n * n];
        for (int i = 0; i < n; i++) {
            fr.setOne(inv, 4 * (i * n + i));
        }
        long[] f = new long[4];
        long[] x = new long[4];
        for (int col = 0; col < n; col++) {
            int piv = -1;
            for (int r = col; r < n; r++) {
                if (!fr.isZero(a, 4 * (r * n + col))) {
                    piv = r;
                    break;
                }
            }
            if (piv < 0) {
                return null;
            }
            swapRows(a, piv, col, n);
            swapRows(inv, piv, col, n);
            fr.inv(a, 4 * (col * n + col), f, 0);
            for (int j = 0; j < n; j++) {
                fr.mul(a, 4 * (col * n + j), f, 0, a, 4 * (col * n + j));
                fr.mul(inv, 4 * (col * n + j), f, 0, inv, 4 * (col * n + j));
            }
            for (int r = 0; r < n; r++) {
                if (r == col || fr.isZero(a, 4 * (r * n + col))) {
                    continue;
                }
                System.arraycopy(a, 4 * (r * n + col), f, 0, 4);
                for (int j = 0; j < n; j++) {
                    fr.mul(f, 0, a, 4 * (col * n + j), x, 0);
                    fr.sub(a, 4 * (r * n + j), x, 0, a, 4 * (r * n + j));
                    fr.mul(f, 0, inv, 4 * (col * n + j), x, 0);
                    fr.sub(inv, 4 * (r * n + j), x, 0, inv, 4 * (r * n + j));
                }
            }
        }
        return inv;
    }

    private static void swapRows(long[] a, int i, int j, int n) {
        if (i == j) {
            return;
        }
        long[] tmp = new long[4 * n];
        System.arraycopy(a, 4 * i * n, tmp, 0, 4 * n);
        System.arraycopy(a, 4 * j * n, a, 4 * i * n, 4 * n);
        System.arraycopy(tmp, 0, a, 4 * j * n, 4 * n);
    }

    /**
     * z = A''_k z for partial round k (0-based): z_0' = a00 z_0 + row . z_1.., z_i' = z_i + w_i z_0.
     * x and y are scratch elements.
     */
    void applySparse(PrimeField fr, int round, long[] z, long[] x, long[] y) {
        int base = 4 * (2 * t - 1) * round;
        fr.mul(sparse, base, z, 0, y, 0);
        for (int j = 1; j < t; j++) {
            fr.mul(sparse, base + 4 * j, z, 4 * j, x, 0);
            fr.add(y, 0, x, 0, y, 0);
        }
        for (int i = 1; i < t; i++) {
            fr.mul(sparse, base + 4 * (t + i - 1), z, 0, x, 0);
            fr.add(z, 4 * i, x, 0, z, 4 * i);
        }
        System.arraycopy(y, 0, z, 0, 4);
    }

    /** s = diag(1, X) z + gamma, after the partial rounds; tmp holds t elements. */
    void finishPartial(PrimeField fr, long[] z, long[] tmp, long[] x) {
        int n = t - 1;
        for (int i = 0; i < n; i++) {
            fr.setZero(tmp, 4 * i);
            for (int j = 0; j < n; j++) {
                fr.mul(last, 4 * (i * n + j), z, 4 * (j + 1), x, 0);
                fr.add(tmp, 4 * i, x, 0, tmp, 4 * i);
            }
        }
        System.arraycopy(tmp, 0, z, 4, 4 * n);
        for (int i = 0; i < t; i++) {
            fr.add(z, 4 * i, gamma, 4 * i, z, 4 * i);
        }
    }

    /** out = L(v) = M (v with v_0 = 0). */
    private void apply(PrimeField fr, long[] m, long[] v, long[] out) {
        long[] x = new long[4];
        for (int r = 0; r < t; r++) {
            fr.setZero(out, 4 * r);
            for (int j = 1; j < t; j++) {
                fr.mul(m, 4 * (r * t + j), v, 4 * j, x, 0);
                fr.add(out, 4 * r, x, 0, out, 4 * r);
            }
        }
    }
}
