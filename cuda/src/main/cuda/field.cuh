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
    /** 64-bit words of an element in memory. */
    static constexpr int WORDS = N;
    typedef fe<P> T;

    /** The element at s (WORDS little-endian words). */
    PL_HD static void load(const u64 *s, T &r) {
        PL_UNROLL for (int i = 0; i < N; i++) r.l[i] = s[i];
    }

    PL_HD static void store(u64 *d, const T &a) {
        PL_UNROLL for (int i = 0; i < N; i++) d[i] = a.l[i];
    }

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

    /** Word j of q in 32-bit words. */
    PL_HD static constexpr u32 q32(int j) {
        return (u32)(P::q(j / 2) >> (32 * (j & 1)));
    }

    /**
     * r = a * b / R mod q: CIOS Montgomery multiplication on 2N 32-bit words, each round two carry chains
     * for a b_i (the low and the high halves of the word products) and two for m q, then a shift by one
     * word. The running value t stays below 2q < 2^(64N) between rounds and below 2^(64N + 32) within one
     * (t + a b_i + m q < 2q + 2 (2^32 - 1) q), so 2N + 1 words hold it and no chain carries out of the
     * top word. 4 (2N)^2 multiply-adds: on the device each a single instruction with the carry in the
     * condition code, about half the instructions of 64-bit words (whose products and carries the device
     * builds from 32-bit ones).
     */
    PL_HD static void mul(const T &a, const T &b, T &r) {
        constexpr int n = 2 * N;
        u32 x[n], y[n], t[n + 1];
        PL_UNROLL for (int i = 0; i < N; i++) {
            x[2 * i] = (u32)a.l[i];
            x[2 * i + 1] = (u32)(a.l[i] >> 32);
            y[2 * i] = (u32)b.l[i];
            y[2 * i + 1] = (u32)(b.l[i] >> 32);
        }
        PL_UNROLL for (int i = 0; i <= n; i++) t[i] = 0;
        const u32 qinv = (u32)P::QINV;  // -q^-1 mod 2^32
        PL_UNROLL for (int i = 0; i < n; i++) {
            const u32 bi = y[i];
            carry_chain k1;  // t += lo(x_j b_i) 2^(32 j)
            t[0] = k1.mad_lo_cc(x[0], bi, t[0]);
            PL_UNROLL for (int j = 1; j < n; j++) t[j] = k1.madc_lo_cc(x[j], bi, t[j]);
            t[n] = k1.addc(t[n], 0);
            carry_chain k2;  // t += hi(x_j b_i) 2^(32 (j + 1))
            t[1] = k2.mad_hi_cc(x[0], bi, t[1]);
            PL_UNROLL for (int j = 1; j < n - 1; j++) t[j + 1] = k2.madc_hi_cc(x[j], bi, t[j + 1]);
            t[n] = k2.madc_hi(x[n - 1], bi, t[n]);
            const u32 m = t[0] * qinv;
            carry_chain k3;  // t += lo(m q_j) 2^(32 j): word 0 becomes 0
            t[0] = k3.mad_lo_cc(m, q32(0), t[0]);
            PL_UNROLL for (int j = 1; j < n; j++) t[j] = k3.madc_lo_cc(m, q32(j), t[j]);
            t[n] = k3.addc(t[n], 0);
            carry_chain k4;  // t += hi(m q_j) 2^(32 (j + 1))
            t[1] = k4.mad_hi_cc(m, q32(0), t[1]);
            PL_UNROLL for (int j = 1; j < n - 1; j++) t[j + 1] = k4.madc_hi_cc(m, q32(j), t[j + 1]);
            t[n] = k4.madc_hi(m, q32(n - 1), t[n]);
            PL_UNROLL for (int j = 0; j < n; j++) t[j] = t[j + 1];  // / 2^32
            t[n] = 0;
        }
        u64 w[N];
        PL_UNROLL for (int i = 0; i < N; i++) w[i] = t[2 * i] | (u64)t[2 * i + 1] << 32;
        reduce_once(w, r);
    }

    /**
     * r = a^2 / R mod q: on the device mul(a, a), whose 32-bit words take fewer instructions than the
     * 64-bit squaring; on the host sqr64.
     */
    PL_HD static void sqr(const T &a, T &r) {
#if defined(__CUDA_ARCH__)
        mul(a, a, r);
#else
        sqr64(a, r);
#endif
    }

    /**
     * r = a^2 / R mod q on 64-bit words: the 2N-limb square (each cross product once, doubled, plus the
     * diagonal), then N Montgomery reduction rounds; about N(N-1)/2 fewer products than a 64-bit mul(a, a).
     */
    PL_HD static void sqr64(const T &a, T &r) {
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
