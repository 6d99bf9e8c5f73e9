// Prime field arithmetic in Montgomery form, for the fields of field_params.cuh.
//
// An element x is held as x*R mod q in N little-endian 64-bit limbs, R = 2^(64N): the layout of the
// Java field classes' long[] vectors, so vectors are copied between the JVM and the GPU unchanged.
// Every result is fully reduced (in [0, q)), so equal values have equal limbs. Results may alias
// inputs: each function reads its inputs before writing.
#pragma once

#include "pl_common.cuh"
#include "field_params.cuh"

namespace pl {

template <class P>
struct fe {
    u64 l[P::N];
};

template <class P>
struct field {
    static constexpr int N = P::N;
    typedef fe<P> T;

    PL_HD static void set_zero(T &r) {
        PL_UNROLL for (int i = 0; i < N; i++) r.l[i] = 0;
    }

    PL_HD static void set_one(T &r) {
        PL_UNROLL for (int i = 0; i < N; i++) r.l[i] = P::one(i);
    }

    PL_HD static bool is_zero(const T &a) {
        u64 acc = 0;
        PL_UNROLL for (int i = 0; i < N; i++) acc |= a.l[i];
        return acc == 0;
    }

    PL_HD static bool eq(const T &a, const T &b) {
        u64 acc = 0;
        PL_UNROLL for (int i = 0; i < N; i++) acc |= a.l[i] ^ b.l[i];
        return acc == 0;
    }

    /** r = t - q when t >= q, else t; requires t < 2q. */
    PL_HD static void reduce_once(const u64 (&t)[N], T &r) {
        u64 d[N];
        u64 borrow = 0;
        PL_UNROLL for (int i = 0; i < N; i++) d[i] = subb(t[i], P::q(i), borrow);
        // borrow set: t < q, keep t
        u64 keep = 0 - borrow;
        PL_UNROLL for (int i = 0; i < N; i++) r.l[i] = (t[i] & keep) | (d[i] & ~keep);
    }

    /**
     * r = a * b / R mod q: CIOS Montgomery multiplication without the final carry word, valid because
     * the top limb of q is below 2^63 - 1 (the running value stays below 2q).
     */
    PL_HD static void mul(const T &a, const T &b, T &r) {
        u64 t[N];
        PL_UNROLL for (int i = 0; i < N; i++) t[i] = 0;
        PL_UNROLL for (int i = 0; i < N; i++) {
            const u64 bi = b.l[i];
            u64 A = 0, C = 0;
            mac(t[0], a.l[0], bi, A);                 // (A, t0) = t0 + a0 bi
            const u64 m = t[0] * P::QINV;
            u64 s = t[0];
            mac(s, m, P::q(0), C);                    // (C, _) = t0 + m q0; the low word is 0
            PL_UNROLL for (int j = 1; j < N; j++) {
                mac(t[j], a.l[j], bi, A);             // (A, tj) = tj + aj bi + A
                u64 u = t[j];
                mac(u, m, P::q(j), C);                // (C, t(j-1)) = tj + m qj + C
                t[j - 1] = u;
            }
            t[N - 1] = C + A;
        }
        reduce_once(t, r);
    }

    /**
     * r = a^2 / R mod q: the 2N-limb square (each cross product once, doubled, plus the diagonal),
     * then N Montgomery reduction rounds; about N(N-1)/2 fewer products than mul(a, a).
     */
    PL_HD static void sqr(const T &a, T &r) {
        u64 t[2 * N];
        PL_UNROLL for (int i = 0; i < 2 * N; i++) t[i] = 0;
        // cross products a_i a_j, i < j
        PL_UNROLL for (int i = 0; i < N - 1; i++) {
            u64 c = 0;
            PL_UNROLL for (int j = i + 1; j < N; j++) mac(t[i + j], a.l[i], a.l[j], c);
            t[i + N] = c;
        }
        // doubled (a < 2^(64N-1), so nothing is shifted out)
        t[2 * N - 1] = t[2 * N - 2] >> 63;
        PL_UNROLL for (int k = 2 * N - 2; k > 0; k--) t[k] = (t[k] << 1) | (t[k - 1] >> 63);
        t[0] <<= 1;
        // plus the squares a_i^2
        u64 carry = 0;
        PL_UNROLL for (int i = 0; i < N; i++) {
            u64 lo, hi;
            mul_wide(a.l[i], a.l[i], lo, hi);
            t[2 * i] = addc(t[2 * i], lo, carry);
            t[2 * i + 1] = addc(t[2 * i + 1], hi, carry);
        }
        // reduction: t += m q 2^(64i) clears word i; the carry out of word i + N goes into the next round
        u64 extra = 0;
        PL_UNROLL for (int i = 0; i < N; i++) {
            const u64 m = t[i] * P::QINV;
            u64 c = 0;
            PL_UNROLL for (int j = 0; j < N; j++) mac(t[i + j], m, P::q(j), c);
            u64 k1 = 0, k2 = 0;
            t[i + N] = addc(t[i + N], c, k1);
            t[i + N] = addc(t[i + N], extra, k2);
            extra = k1 + k2;
        }
        // (a^2 + m q) / R < 2q < 2^(64N): the last carry is 0
        u64 h[N];
        PL_UNROLL for (int i = 0; i < N; i++) h[i] = t[N + i];
        reduce_once(h, r);
    }

    PL_HD static void add(const T &a, const T &b, T &r) {
        u64 t[N];
        u64 carry = 0;
        PL_UNROLL for (int i = 0; i < N; i++) t[i] = addc(a.l[i], b.l[i], carry);
        // no carry out: 2q < 2^(64N)
        reduce_once(t, r);
    }

    PL_HD static void dbl(const T &a, T &r) {
        add(a, a, r);
    }

    PL_HD static void sub(const T &a, const T &b, T &r) {
        u64 d[N];
        u64 borrow = 0;
        PL_UNROLL for (int i = 0; i < N; i++) d[i] = subb(a.l[i], b.l[i], borrow);
        const u64 mask = 0 - borrow;  // add q back when the subtraction borrowed
        u64 carry = 0;
        PL_UNROLL for (int i = 0; i < N; i++) r.l[i] = addc(d[i], P::q(i) & mask, carry);
    }

    PL_HD static void neg(const T &a, T &r) {
        const u64 nz = is_zero(a) ? 0 : ~(u64)0;
        u64 borrow = 0;
        PL_UNROLL for (int i = 0; i < N; i++) r.l[i] = subb(P::q(i), a.l[i], borrow) & nz;
    }

    /** Canonical limbs (below q) to Montgomery form. */
    PL_HD static void to_mont(const T &a, T &r) {
        T r2;
        PL_UNROLL for (int i = 0; i < N; i++) r2.l[i] = P::r2(i);
        mul(a, r2, r);
    }

    /** Montgomery form to canonical limbs. */
    PL_HD static void from_mont(const T &a, T &r) {
        T one;
        PL_UNROLL for (int i = 0; i < N; i++) one.l[i] = i == 0 ? 1 : 0;
        mul(a, one, r);
    }
};

typedef field<bn254_fp_params> bn254_fp;
typedef field<bn254_fr_params> bn254_fr;
typedef field<bls12381_fp_params> bls12381_fp;
typedef field<bls12381_fr_params> bls12381_fr;

}  // namespace pl
