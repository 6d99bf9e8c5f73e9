// The number-theoretic transform over Fr, one __host__ __device__ function per kernel thread.
//
// Each function does the work of thread i of one kernel launch (ntt_kernels.cuh wraps each in a
// __global__ entry point that runs it for every i below a count); the host test program runs the same
// functions in a loop over all i, launch after launch, so the device's sequence of kernels is
// emulated on the CPU with the same code. The kernel that keeps a block of elements in shared memory
// (ntt_block_steps) is a sequence of steps, each a function of the thread index, separated by barriers;
// the emulation runs each step for every thread of the block before the next.
//
// Vectors are the Java layout: element i of an N-limb field at words [N i, N i + N), Montgomery form.
// The twiddles are those of the Java Ntt: for each stage s (half-size h = 2^s) a table of w_(2h)^j,
// j < h, the tables one after another (stage s at element 2^s - 1, n - 1 elements in all), then n^-1.
//
//   bit_reverse   a_i <-> a_rev(i)                                  n threads
//   reverse_tail  a_i <-> a_(n-i), times c unless c is null        n/2 + 1 threads
//   scale         a_p *= low[p mod 2^b] high[p >> b]                n threads
//   h             h_i = from_mont(a_i b_i - c_i)                    n threads
//   block         up to 10 radix-2 stages in shared memory           n/2 threads, 2^(k-1) a block
//                 (decimation in time, u = a[x], v = a[x + h] w_(2h)^j: a[x] = u + v, a[x + h] = u - v;
//                 in frequency, a[x] = u + v, a[x + h] = (u - v) w_(2h)^-j), see ntt_block_steps
#pragma once

#include "field.cuh"

namespace pl {

template <class P>
PL_HD void ntt_load(const u64 *v, u64 i, fe<P> &r) {
    PL_UNROLL for (int k = 0; k < P::N; k++) r.l[k] = v[i * P::N + k];
}

template <class P>
PL_HD void ntt_store(u64 *v, u64 i, const fe<P> &a) {
    PL_UNROLL for (int k = 0; k < P::N; k++) v[i * P::N + k] = a.l[k];
}

/** The low log_n bits of i in reverse order. */
PL_HD u64 ntt_reverse_bits(u64 i, u32 log_n) {
    u64 r = 0;
    for (u32 k = 0; k < log_n; k++) {
        r = (r << 1) | ((i >> k) & 1);
    }
    return r;
}

/** Thread i of the bit-reversal permutation: swaps a_i and a_rev(i) when i < rev(i). */
template <class P>
PL_HD void ntt_bit_reverse(u64 i, u64 *a, u32 log_n) {
    const u64 r = ntt_reverse_bits(i, log_n);
    if (i < r) {
        fe<P> x, y;
        ntt_load(a, i, x);
        ntt_load(a, r, y);
        ntt_store(a, i, y);
        ntt_store(a, r, x);
    }
}

/**
 * A decimation-in-time butterfly of a stage of half-size h: u = *x, v = *y w_(2h)^j (tw the stage's
 * table), *x = u + v, *y = u - v.
 */
template <class P>
PL_HD void ntt_dit_pair(u64 *x, u64 *y, const u64 *tw, u64 j) {
    typedef field<P> F;
    fe<P> u, v, w;
    ntt_load(x, 0, u);
    ntt_load(y, 0, v);
    if (j != 0) {
        ntt_load(tw, j, w);
        F::mul(v, w, v);
    }
    fe<P> sum, diff;
    F::add(u, v, sum);
    F::sub(u, v, diff);
    ntt_store(x, 0, sum);
    ntt_store(y, 0, diff);
}

/**
 * A decimation-in-frequency butterfly with w^-1: *x = u + v, *y = (u - v) w_(2h)^-j, the forward table
 * read backwards (w_(2h)^-j = -w_(2h)^(h-j), so (u - v) w_(2h)^-j = (v - u) tw[h - j]).
 */
template <class P>
PL_HD void ntt_dif_pair(u64 *x, u64 *y, const u64 *tw, u64 j, u64 half) {
    typedef field<P> F;
    fe<P> u, v, t, sum;
    ntt_load(x, 0, u);
    ntt_load(y, 0, v);
    F::add(u, v, sum);
    if (j == 0) {
        F::sub(u, v, t);
    } else {
        fe<P> w;
        F::sub(v, u, t);
        ntt_load(tw, half - j, w);
        F::mul(t, w, t);
    }
    ntt_store(x, 0, sum);
    ntt_store(y, 0, t);
}

/**
 * Thread i (0 <= i <= n/2) of a_i <-> a_(n-i) for 0 < i < n/2, each element times c[0] unless c is
 * null: the forward transform's output turned into the inverse's (with c = 1/n).
 */
template <class P>
PL_HD void ntt_reverse_tail(u64 i, u64 *a, const u64 *c, u32 log_n) {
    typedef field<P> F;
    const u64 n = (u64)1 << log_n;
    const u64 j = (n - i) & (n - 1);
    if (i > j) return;
    fe<P> x, y, k;
    ntt_load(a, i, x);
    if (i == j) {
        if (c != nullptr) {
            ntt_load(c, 0, k);
            F::mul(x, k, x);
            ntt_store(a, i, x);
        }
        return;
    }
    ntt_load(a, j, y);
    if (c != nullptr) {
        ntt_load(c, 0, k);
        F::mul(x, k, x);
        F::mul(y, k, y);
    }
    ntt_store(a, i, y);
    ntt_store(a, j, x);
}

/** The scaling of element p (at e) by low[p mod 2^b] * high[p >> b]. */
template <class P>
PL_HD void ntt_scale_element(u64 p, u64 *e, const u64 *low, const u64 *high, u32 low_bits) {
    typedef field<P> F;
    fe<P> x, l, h;
    ntt_load(low, p & (((u64)1 << low_bits) - 1), l);
    ntt_load(high, p >> low_bits, h);
    F::mul(l, h, l);
    ntt_load(e, 0, x);
    F::mul(x, l, x);
    ntt_store(e, 0, x);
}

/**
 * Thread p of a_p *= low[p mod 2^b] * high[p >> b], b = low_bits: scaling by c r^e(p) from two tables
 * of about sqrt(n) entries (e(p) = p for a natural-order vector, rev(p) for a bit-reversed one; the
 * tables are made on the host).
 */
template <class P>
PL_HD void ntt_scale(u64 p, u64 *a, const u64 *low, const u64 *high, u32 low_bits) {
    ntt_scale_element<P>(p, a + p * P::N, low, high, low_bits);
}

// ---------------------------------------------------------------- stages in shared memory
//
// A launch of ntt_block runs the stages s0 .. s0+k-1 (k <= NTT_MAX_BLOCK_LOG) on the whole vector.
// Those stages combine only elements whose indices agree outside the bits s0 .. s0+k-1, so the vector
// falls into n / 2^k groups of 2^k elements: group g = (hi, lo), lo < 2^s0, holds the elements
//   x(m) = hi 2^(s0+k) + m 2^s0 + lo,  m < 2^k
// (2^k consecutive elements when s0 = 0). A thread block takes one group into shared memory (element m
// at m) and runs there, with 2^(k-1) threads (a butterfly each) and a barrier after each step:
//   NTT_BLOCK_DIF    the decimation-in-frequency stages s0+k-1 .. s0
//   NTT_BLOCK_SCALE  the scaling of ntt_scale (p the element's index x(m) in the vector)
//   NTT_BLOCK_DIT    the decimation-in-time stages s0 .. s0+k-1
// in that order, then writes the group back. In stage s = s0 + l, butterfly t pairs m1 and m1 + 2^l,
// m1 = ((t >> l) << (l+1)) + (t mod 2^l), with the twiddle of x(m1) mod 2^s = (t mod 2^l) 2^s0 + lo.
// ntt_block_steps is the sequence; `each` runs a step for every thread of the block and waits for all
// of them (on the device: the thread's own index, then __syncthreads; in the host emulation: a loop
// over the indices).

#define NTT_MAX_BLOCK_LOG 10
#define NTT_BLOCK_DIF 1u
#define NTT_BLOCK_SCALE 2u
#define NTT_BLOCK_DIT 4u

/** The index in the vector of element m of group g (stages s0 .. s0+k-1). */
PL_HD u64 ntt_group_element(u64 g, u64 m, u32 s0, u32 k) {
    const u64 lo = g & (((u64)1 << s0) - 1);
    const u64 hi = g >> s0;
    return (hi << (s0 + k)) + (m << s0) + lo;
}

/**
 * Thread t's part of copying group g between the vector and shared memory (to shared memory unless
 * back): for a contiguous group (s0 = 0) words t, t + T, ... (T = 2^(k-1) threads), else elements t and
 * t + T.
 */
template <class P>
PL_HD void ntt_block_copy(u64 g, u32 t, u32 s0, u32 k, u64 *a, u64 *shared, bool back) {
    const u64 threads = (u64)1 << (k - 1);
    if (s0 == 0) {
        const u64 words = (u64)P::N << k;
        u64 *v = a + g * words;
        for (u64 i = t; i < words; i += threads) {
            if (back) v[i] = shared[i]; else shared[i] = v[i];
        }
        return;
    }
    for (u64 m = t; m < 2 * threads; m += threads) {
        u64 *v = a + ntt_group_element(g, m, s0, k) * P::N;
        u64 *l = shared + m * P::N;
        PL_UNROLL for (int w = 0; w < P::N; w++) {
            if (back) v[w] = l[w]; else l[w] = v[w];
        }
    }
}

/** Butterfly t of local stage l in shared memory: the two elements and the twiddle's index j. */
template <class P>
PL_HD void ntt_block_pair(u64 g, u32 t, u32 s0, u32 l, u64 *shared, u64 *&x, u64 *&y, u64 &j) {
    const u64 h = (u64)1 << l;
    const u64 jl = t & (h - 1);
    const u64 m1 = (((u64)t >> l) << (l + 1)) + jl;
    x = shared + m1 * P::N;
    y = shared + (m1 + h) * P::N;
    j = (jl << s0) + (g & (((u64)1 << s0) - 1));
}

/**
 * The steps of one group (one thread block) over the stages s0 .. s0+k-1; tw is the whole twiddle table
 * (stage s at element 2^s - 1). (Each is a host functor in the host emulation, hence no execution-space
 * check on this template.)
 */
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class P, class Each>
PL_HD void ntt_block_steps(Each &each, u64 g, u32 s0, u32 k, u32 mode, u64 *a, u64 *shared, const u64 *tw,
                           const u64 *low, const u64 *high, u32 low_bits) {
    each([&](u32 t) { ntt_block_copy<P>(g, t, s0, k, a, shared, false); });
    if (mode & NTT_BLOCK_DIF) {
        for (u32 l = k; l-- > 0;) {
            each([&](u32 t) {
                u64 *x, *y, j;
                ntt_block_pair<P>(g, t, s0, l, shared, x, y, j);
                const u32 s = s0 + l;
                ntt_dif_pair<P>(x, y, tw + (((u64)1 << s) - 1) * P::N, j, (u64)1 << s);
            });
        }
    }
    if (mode & NTT_BLOCK_SCALE) {
        each([&](u32 t) {
            const u64 half = (u64)1 << (k - 1);
            for (u64 m = t; m < 2 * half; m += half) {
                ntt_scale_element<P>(ntt_group_element(g, m, s0, k), shared + m * P::N, low, high, low_bits);
            }
        });
    }
    if (mode & NTT_BLOCK_DIT) {
        for (u32 l = 0; l < k; l++) {
            each([&](u32 t) {
                u64 *x, *y, j;
                ntt_block_pair<P>(g, t, s0, l, shared, x, y, j);
                ntt_dit_pair<P>(x, y, tw + (((u64)1 << (s0 + l)) - 1) * P::N, j);
            });
        }
    }
    each([&](u32 t) { ntt_block_copy<P>(g, t, s0, k, a, shared, true); });
}

/** Thread i of h_i = a_i b_i - c_i, out of Montgomery form (the scalars of the H MSM); h may be a. */
template <class P>
PL_HD void ntt_h(u64 i, const u64 *a, const u64 *b, const u64 *c, u64 *h) {
    typedef field<P> F;
    fe<P> x, y, z;
    ntt_load(a, i, x);
    ntt_load(b, i, y);
    ntt_load(c, i, z);
    F::mul(x, y, x);
    F::sub(x, z, x);
    F::from_mont(x, x);
    ntt_store(h, i, x);
}

}  // namespace pl
