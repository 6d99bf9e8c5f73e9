// Multi-scalar multiplication sum_i k_i P_i on G1 or G2 by Pippenger's bucket method, as per-thread steps
// templated over the group (curve_points over Fp for G1, over Fp2 for G2).
//
// Each step is a __host__ __device__ function of (thread index, sizes, pointers), called from the
// grid-stride loops of the kernel bodies of msm_kernels.cuh; the host test program and the tests' fake
// driver run those bodies on the CPU, thread after thread (the atomic additions one after another).
//
// Inputs, the Java layout: n affine points (x, y in Montgomery form, infinity = (0, 0)) and n scalars,
// 4 canonical little-endian words each (taken mod r). With c-bit windows, W = (bits + c) / c windows and
// 2^(c-1) buckets a window, the steps are:
//
//   recode       thread i < n:          the scalar's signed digits, one a window, in [-2^(c-1)+1, 2^(c-1)]
//                                       (carry into the next window when above 2^(c-1)); digits[w n + i]
//                                       is |d| | sign << 31 (0 for d = 0); counts[w nb + |d| - 1] += 1
//   chunk_sum    thread t < W nb / C:   sums of chunks of C = min(nb, 256) bucket counts
//   scan         thread t < W nb / C:   offsets[w (nb + 1) + b] = counts before bucket b (the window's
//                                       earlier chunks' sums, then a serial scan of the chunk); cursor = offsets
//   scatter      thread t < W n:        the (bucket, point) pairs sorted by bucket (a counting sort):
//                                       sorted[w n + cursor[w nb + b]++] = i | sign << 31
//   task_count   thread t < W nb:       tasks of bucket t: ceil(count / MSM_TASK); then chunk_sum and scan
//                                       again give each window's task offsets
//   accumulate   thread t < W T:        task j of window w (T = msm_max_tasks tasks a window at most): up to
//                                       MSM_TASK points of one bucket summed (mixed additions, negated
//                                       points for negative digits), a Jacobian partial sum
//   task_count, chunk_sum, scan on the task counts: groups of up to MSM_TASK partial sums a bucket
//   merge_group  thread t < W G:        a group's partial sums added (G bounds a window's groups)
//   merge        thread t < W nb:       bucket b of window w: the sum of its groups' sums
//   reduce_segments thread t < W S:     buckets [s L, s L + L) of a window (L = msm_segment_len):
//                                       running sums give T_s = sum_j (j - s L + 1) B_j and S_s = sum_j B_j
//   scale_segment thread t < W S:       T_s + (s L) S_s, the segment's share of the window sum
//                                       sum_b (b + 1) B_b (double-and-add over the bits of s L)
//   sum_run      thread t < W ceil(k / MSM_RUN): runs of MSM_RUN of a window's k shares summed, again and
//                                       again until one is left: the window sum
//   combine      on the host:           sum_w 2^(c w) window_w, by doubling from the top window
//
// Zero digits go into no bucket; points at infinity and repeated or opposite points are handled by the
// point formulas. Results are Jacobian points (X, Y, Z) of g1.cuh.
#pragma once

#include "fp2.cuh"

namespace pl {

/** *p += v, returning the old value: atomic on the device, a plain update on the host (one thread). */
PL_HD u32 msm_atomic_add(u32 *p, u32 v) {
#if defined(__CUDA_ARCH__)
    return atomicAdd(p, v);
#else
    u32 old = *p;
    *p = old + v;
    return old;
#endif
}

/**
 * The window size for n points: log2(n) - 2 bits up to 8, 8 up to 2^16 points, 15 from 2^17 (MsmSizes.windowBits
 * is the same and says why: a c whose top window holds a few bits only crowds the top digits into a handful
 * of buckets).
 */
PL_HD int msm_window_bits(u64 n) {
    int lg = 0;
    while (lg < 62 && (2ull << lg) <= n) lg++;
    if (lg > 16) return 15;
    int c = lg - 2;
    return c < 3 ? 3 : c > 8 ? 8 : c;
}

/** Windows for scalars of `bits` bits with c-bit signed digits (the top digit never carries out). */
PL_HD int msm_windows(int bits, int c) {
    return (bits + c) / c;
}

/**
 * Buckets in one segment of the bucket reduction, nb a power of two: 16, or nb when there are fewer. Each
 * segment's thread adds 2 points a bucket; the segments' shares are then summed in parallel runs
 * (sum_run), so no thread adds more than a few dozen points.
 */
PL_HD u32 msm_segment_len(u32 nb) {
    return nb < 16 ? nb : 16;
}

/** Points one sum_run thread adds. */
static constexpr u32 MSM_RUN = 16;

static constexpr u32 MSM_SIGN = 0x80000000u;

#if defined(__CUDACC__)
#define PL_MSM_CALL __host__ __device__ __noinline__
#else
#define PL_MSM_CALL inline
#endif

/**
 * The point operations of the bucket reduction, as functions of their own on the device (not inlined),
 * which keeps the kernels' code, and nvcc's time, small; the formulas are those of g1.cuh. The bucket
 * accumulation, the hot loop, inlines its mixed addition instead.
 */
template <class G>
struct msm_points {
    typedef typename G::J J;
    PL_MSM_CALL static void add(const J &p, const J &q, J &r) {
        G::add(p, q, r);
    }
    PL_MSM_CALL static void dbl(const J &p, J &r) {
        G::dbl(p, r);
    }
};

/**
 * The steps for the group G (curve_points over a coordinate field: G1 over Fp, G2 over Fp2) with
 * scalars mod the modulus of FR.
 */
template <class G_, class FR>
struct msm {
    typedef G_ G;
    typedef typename G::F F;
    typedef typename G::A A;
    typedef typename G::J J;
    static constexpr int N = F::WORDS;  // words of a coordinate
    static constexpr int JW = 3 * N;    // words of a Jacobian point
    static constexpr int AW = 2 * N;    // words of an affine point

    PL_HD static int windows(int c) {
        return msm_windows(FR::BITS, c);
    }

    PL_HD static void load(const u64 *v, u64 i, J &p) {
        const u64 *s = v + i * JW;
        F::load(s, p.x);
        F::load(s + N, p.y);
        F::load(s + 2 * N, p.z);
    }

    PL_HD static void store(u64 *v, u64 i, const J &p) {
        u64 *d = v + i * JW;
        F::store(d, p.x);
        F::store(d + N, p.y);
        F::store(d + 2 * N, p.z);
    }

    PL_HD static void load(const u64 *v, u64 i, A &p) {
        const u64 *s = v + i * AW;
        F::load(s, p.x);
        F::load(s + N, p.y);
    }

    /** Digits of scalar i into digits[w n + i], and the bucket counts. */
    PL_HD static void recode(u64 i, u64 n, int c, const u64 *scalars, u32 *digits, u32 *counts) {
        u64 k[4];
        PL_UNROLL for (int j = 0; j < 4; j++) k[j] = scalars[4 * i + j];
        // k mod r: 2^256 / r < 6 for both curves, so a few subtractions at most
        for (;;) {
            u64 d[4];
            u64 borrow = 0;
            PL_UNROLL for (int j = 0; j < 4; j++) d[j] = subb(k[j], FR::q(j), borrow);
            if (borrow) break;
            PL_UNROLL for (int j = 0; j < 4; j++) k[j] = d[j];
        }
        const int nw = windows(c);
        const u32 nb = 1u << (c - 1);
        const u64 mask = (1ull << c) - 1;
        const u64 half = 1ull << (c - 1);
        u64 carry = 0;
        for (int w = 0; w < nw; w++) {
            const int pos = w * c;
            const int limb = pos >> 6;
            const int sh = pos & 63;
            u64 v = 0;
            if (limb < 4) {
                v = k[limb] >> sh;
                if (sh + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - sh);
                v &= mask;
            }
            u64 d = v + carry;
            u32 sign = 0;
            if (d > half) {
                d = (1ull << c) - d;  // the digit d - 2^c, negative
                sign = MSM_SIGN;
                carry = 1;
            } else {
                carry = 0;
            }
            u32 code = d == 0 ? 0 : (u32)d | sign;
            digits[(u64)w * n + i] = code;
            if (d != 0) msm_atomic_add(&counts[(u64)w * nb + (d - 1)], 1);
        }
    }
};

/** Buckets a chunk of the counts' prefix sums: min(buckets, 256) (a power of two). */
PL_HD u32 msm_scan_chunk(u32 nb) {
    return nb < 256 ? nb : 256;
}

/** Chunk t = w (nb / chunk) + k of the bucket counts: its sum. */
PL_HD void msm_chunk_sum(u64 t, u32 nb, const u32 *counts, u32 *chunk_sums) {
    const u32 chunk = msm_scan_chunk(nb);
    const u32 *cnt = counts + t * chunk;  // chunks tile each window's counts, windows one after another
    u32 s = 0;
    for (u32 b = 0; b < chunk; b++) s += cnt[b];
    chunk_sums[t] = s;
}

/**
 * Chunk t = w (nb / chunk) + k: the exclusive prefix sums of window w's counts over the chunk's buckets
 * (offsets, nb + 1 a window, the last one the window's total; and the cursor copy), starting from the sum
 * of the window's earlier chunks.
 */
PL_HD void msm_prefix_chunk(u64 t, u32 nb, const u32 *counts, const u32 *chunk_sums, u32 *offsets,
                             u32 *cursor) {
    const u32 chunk = msm_scan_chunk(nb);
    const u32 chunks = nb / chunk;
    const u64 w = t / chunks;
    const u32 k = (u32)(t - w * chunks);
    u32 s = 0;
    for (u32 j = 0; j < k; j++) s += chunk_sums[w * chunks + j];
    const u32 lo = k * chunk;
    const u32 *cnt = counts + w * nb;
    u32 *off = offsets + w * (nb + 1);
    u32 *cur = cursor + w * nb;
    for (u32 b = lo; b < lo + chunk; b++) {
        off[b] = s;
        cur[b] = s;
        s += cnt[b];
    }
    if (k == chunks - 1) off[nb] = s;
}

/** Points a bucket-accumulation task adds at most, so a crowded bucket is shared by many threads. */
static constexpr u32 MSM_TASK = 128;

/** An upper bound of a window's tasks: sum_b ceil(count_b / MSM_TASK) <= ceil(n / MSM_TASK) + min(nb, n). */
PL_HD u64 msm_max_tasks(u64 n, u32 nb) {
    return (n + MSM_TASK - 1) / MSM_TASK + (nb < n ? nb : n);
}

/** The bucket b whose tasks [toff[b], toff[b + 1]) hold task j (j < toff[nb]; toff[0] = 0). */
PL_HD u32 msm_find_bucket(const u32 *toff, u32 nb, u32 j) {
    u32 lo = 0, hi = nb;  // toff[lo] <= j < toff[hi]
    while (hi - lo > 1) {
        const u32 mid = lo + (hi - lo) / 2;
        if (toff[mid] <= j) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/** Bucket t's tasks (of its points, or of its partial sums). */
PL_HD void msm_task_count(u64 t, const u32 *counts, u32 *task_counts) {
    task_counts[t] = (counts[t] + MSM_TASK - 1) / MSM_TASK;
}

/** Pair t = w n + i (window w, point i) into its bucket's place, when its digit is not zero. */
PL_HD void msm_scatter(u64 t, u64 n, u32 nb, const u32 *digits, u32 *cursor, u32 *sorted) {
    const u32 code = digits[t];
    if (code == 0) return;
    const u64 w = t / n;
    const u64 i = t - w * n;
    const u32 b = (code & ~MSM_SIGN) - 1;
    const u32 pos = msm_atomic_add(&cursor[w * nb + b], 1);
    sorted[w * n + pos] = (u32)i | (code & MSM_SIGN);
}

template <class G_, class FR>
struct msm_reduce {
    typedef G_ G;
    typedef msm<G, FR> M;
    typedef msm_points<G> P;
    typedef typename G::A A;
    typedef typename G::J J;

    /**
     * Task t = w T + j (T = max_tasks): the sum of the (signed) points of its bucket's share, points
     * [off[b] + q MSM_TASK, min(off[b + 1], off[b] + (q + 1) MSM_TASK)) of the window's sorted pairs, where
     * bucket b is the one whose tasks [toff[b], toff[b + 1]) hold j, and q = j - toff[b]. Threads past the
     * window's last task do nothing.
     */
    PL_HD static void accumulate(u64 t, u64 n, u32 nb, u64 max_tasks, const u64 *points, const u32 *sorted,
                                 const u32 *offsets, const u32 *task_offsets, u64 *partials) {
        const u64 w = t / max_tasks;
        const u64 j = t - w * max_tasks;
        const u32 *toff = task_offsets + w * (nb + 1);
        if (j >= toff[nb]) return;
        const u32 lo = msm_find_bucket(toff, nb, (u32)j);
        const u32 *off = offsets + w * (nb + 1);
        const u32 start = off[lo] + ((u32)j - toff[lo]) * MSM_TASK;
        const u32 end = off[lo + 1] - start < MSM_TASK ? off[lo + 1] : start + MSM_TASK;
        const u32 *s = sorted + w * n;
        J acc;
        G::set_infinity(acc);
        for (u32 e = start; e < end; e++) {
            const u32 v = s[e];
            A p;
            M::load(points, v & ~MSM_SIGN, p);
            if (v & MSM_SIGN) G::neg(p, p);
            G::add_mixed(acc, p, acc);  // inlined: the hot loop keeps its points in registers
        }
        M::store(partials, t, acc);
    }

    /**
     * Group t = w G + j (G = max_groups) of a bucket's partial sums: the sum of up to MSM_TASK of them, so a
     * crowded bucket's partial sums are added by many threads. The groups of bucket b are
     * [goff[b], goff[b + 1]); group q of them takes the bucket's partial sums
     * [toff[b] + q MSM_TASK, min(toff[b + 1], toff[b] + (q + 1) MSM_TASK)).
     */
    PL_HD static void merge_group(u64 t, u32 nb, u64 max_tasks, u64 max_groups, const u64 *partials,
                                  const u32 *task_offsets, const u32 *group_offsets, u64 *group_sums) {
        const u64 w = t / max_groups;
        const u64 j = t - w * max_groups;
        const u32 *goff = group_offsets + w * (nb + 1);
        if (j >= goff[nb]) return;
        const u32 b = msm_find_bucket(goff, nb, (u32)j);
        const u32 *toff = task_offsets + w * (nb + 1);
        const u32 start = toff[b] + ((u32)j - goff[b]) * MSM_TASK;
        const u32 end = toff[b + 1] - start < MSM_TASK ? toff[b + 1] : start + MSM_TASK;
        J acc, p;
        G::set_infinity(acc);
        for (u32 e = start; e < end; e++) {
            M::load(partials, w * max_tasks + e, p);
            P::add(acc, p, acc);
        }
        M::store(group_sums, t, acc);
    }

    /** Bucket t = w nb + b: the sum of its tasks' (or groups') partial sums (infinity for an empty bucket). */
    PL_HD static void merge(u64 t, u32 nb, u64 max_tasks, const u64 *partials, const u32 *task_offsets,
                            u64 *buckets) {
        const u64 w = t / nb;
        const u64 b = t - w * nb;
        const u32 *toff = task_offsets + w * (nb + 1);
        J acc, p;
        G::set_infinity(acc);
        for (u32 j = toff[b], end = toff[b + 1]; j < end; j++) {
            M::load(partials, w * max_tasks + j, p);
            P::add(acc, p, acc);
        }
        M::store(buckets, t, acc);
    }

    /** Segment t = w S + s of len buckets: T_s (running sum of the running sums) and S_s (plain sum). */
    PL_HD static void reduce_segment(u64 t, u32 nb, u32 len, const u64 *buckets, u64 *seg_t, u64 *seg_s) {
        const u32 segs = nb / len;
        const u64 w = t / segs;
        const u64 s = t - w * segs;
        const u64 base = w * nb + s * len;
        J running, acc, b;
        G::set_infinity(running);
        G::set_infinity(acc);
        for (u32 j = len; j-- > 0;) {
            M::load(buckets, base + j, b);
            P::add(running, b, running);
            P::add(acc, running, acc);
        }
        M::store(seg_t, t, acc);
        M::store(seg_s, t, running);
    }

    /**
     * Segment t = w S + s (S = segs), in place: seg_t[t] = T_s + (s L) S_s with L = 2^len_log2, the
     * segment's share of its window's sum sum_b (b + 1) B_b; by double-and-add over the bits of s L.
     */
    PL_HD static void scale_segment(u64 t, u32 segs, u32 len_log2, u64 *seg_t, const u64 *seg_s) {
        const u64 m = (t % segs) << len_log2;
        J r, p;
        M::load(seg_t, t, r);
        if (m != 0) {
            J acc;
            M::load(seg_s, t, p);
            int top = 63;
            while (((m >> top) & 1) == 0) top--;
            acc = p;
            for (int k = top - 1; k >= 0; k--) {
                P::dbl(acc, acc);
                if ((m >> k) & 1) P::add(acc, p, acc);
            }
            P::add(r, acc, r);
        }
        M::store(seg_t, t, r);
    }

    /**
     * Run t = w m + i of a window's count points (m = ceil(count / k) runs a window): out[t] is the sum of
     * in[w count + i k + j] for j < k and i k + j < count.
     */
    PL_HD static void sum_run(u64 t, u32 count, u32 k, const u64 *in, u64 *out) {
        const u64 m = (count + k - 1) / k;
        const u64 w = t / m;
        const u64 lo = (t - w * m) * k;
        const u64 hi = lo + k < count ? lo + k : count;
        J acc, p;
        M::load(in, w * count + lo, acc);
        for (u64 e = lo + 1; e < hi; e++) {
            M::load(in, w * count + e, p);
            P::add(acc, p, acc);
        }
        M::store(out, t, acc);
    }

    /** sum_w 2^(c w) window_w: the host's last step (CudaMsm does it in Java, the host tests with this). */
    PL_HD static void combine(u32 nw, int c, const u64 *windows, u64 *result) {
        J r, p;
        if (nw == 0) {
            G::set_infinity(r);
            M::store(result, 0, r);
            return;
        }
        M::load(windows, nw - 1, r);
        for (u32 w = nw - 1; w-- > 0;) {
            for (int k = 0; k < c; k++) P::dbl(r, r);
            M::load(windows, w, p);
            P::add(r, p, r);
        }
        M::store(result, 0, r);
    }
};

}  // namespace pl
