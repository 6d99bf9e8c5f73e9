// The MSM's kernels (entry points with C linkage, names also in KernelImage.MSM_ENTRY_POINTS), in the
// order CudaMsm launches them; <curve> is bn254 or bls12381 (G1), bn254_g2 or bls12381_g2 (G2):
//
//   pl_msm_gather_scalars(const u64 *scalars, const u32 *index, u64 *out, u64 n), for points resident
//                         without those at infinity: out_k = scalars_index[k] (4 words each), k < n
//   pl_msm_clear_u32(u32 *p, u64 count)
//   pl_<curve>_msm_recode(const u64 *scalars, u32 *digits, u32 *counts, u64 n, u32 c)
//   pl_msm_chunk_sums(const u32 *counts, u32 *sums, u32 nw, u32 nb)
//   pl_msm_scan(const u32 *counts, const u32 *sums, u32 *offsets, u32 *cursor, u32 nw, u32 nb)
//   pl_msm_scatter(const u32 *digits, u32 *cursor, u32 *sorted, u64 n, u32 nw, u32 nb)
//   pl_msm_task_counts(const u32 *counts, u32 *task_counts, u32 nw, u32 nb)
//   pl_msm_chunk_sums, pl_msm_scan on the task counts: the task offsets
//   pl_<curve>_msm_accumulate(const u64 *points, const u32 *sorted, const u32 *offsets,
//                             const u32 *task_offsets, u64 *partials, u64 n, u32 nw, u32 nb, u64 max_tasks)
//   pl_msm_task_counts, pl_msm_chunk_sums, pl_msm_scan on the task counts: the group offsets
//   pl_<curve>_msm_merge_groups(const u64 *partials, const u32 *task_offsets, const u32 *group_offsets,
//                               u64 *group_sums, u32 nw, u32 nb, u64 max_tasks, u64 max_groups)
//   pl_<curve>_msm_merge(const u64 *partials, const u32 *task_offsets, u64 *buckets, u32 nw, u32 nb,
//                        u64 max_tasks)
//   pl_<curve>_msm_reduce_segments(const u64 *buckets, u64 *seg_t, u64 *seg_s, u32 nw, u32 nb, u32 len)
//   pl_<curve>_msm_scale_segments(u64 *seg_t, const u64 *seg_s, u32 nw, u32 segs, u32 len_log2)
//   pl_<curve>_msm_sum_runs(const u64 *in, u64 *out, u32 nw, u32 count, u32 k), until count is 1
//   (then the host combines the window sums)
//
// Each kernel's body is a __host__ __device__ function of (thread, threads, the kernel's parameters): a
// grid-stride loop over the steps of msm.cuh. The __global__ wrappers (nvcc only) pass it the thread's
// index and the grid's size; the tests' fake driver runs the same bodies on the CPU for every thread of a
// launch, unpacking the launch's parameters by the bodies' parameter types. Included by kernels.cu.
#pragma once

#include "msm.cuh"

namespace pl {
namespace msm_kernel {

typedef unsigned long long ull;

PL_HD void gather_scalars(ull tid, ull threads, const u64 *scalars, const u32 *index, u64 *out, ull n) {
    for (ull k = tid; k < n; k += threads) {
        const u64 *s = scalars + (ull)index[k] * 4;
        PL_UNROLL for (int w = 0; w < 4; w++) out[k * 4 + w] = s[w];
    }
}

PL_HD void clear_u32(ull tid, ull threads, u32 *p, ull count) {
    for (ull i = tid; i < count; i += threads) p[i] = 0;
}

PL_HD void chunk_sums(ull tid, ull threads, const u32 *counts, u32 *sums, u32 nw, u32 nb) {
    for (ull t = tid; t < (ull)nw * (nb / msm_scan_chunk(nb)); t += threads) msm_chunk_sum(t, nb, counts, sums);
}

PL_HD void scan(ull tid, ull threads, const u32 *counts, const u32 *sums, u32 *offsets, u32 *cursor, u32 nw,
                u32 nb) {
    for (ull t = tid; t < (ull)nw * (nb / msm_scan_chunk(nb)); t += threads)
        msm_prefix_chunk(t, nb, counts, sums, offsets, cursor);
}

PL_HD void scatter(ull tid, ull threads, const u32 *digits, u32 *cursor, u32 *sorted, ull n, u32 nw, u32 nb) {
    for (ull t = tid; t < n * nw; t += threads) msm_scatter(t, n, nb, digits, cursor, sorted);
}

PL_HD void task_counts(ull tid, ull threads, const u32 *counts, u32 *task_counts, u32 nw, u32 nb) {
    for (ull t = tid; t < (ull)nw * nb; t += threads) msm_task_count(t, counts, task_counts);
}

template <class G, class FR>
struct curve {
    PL_HD static void recode(ull tid, ull threads, const u64 *scalars, u32 *digits, u32 *counts, ull n, u32 c) {
        for (ull i = tid; i < n; i += threads) msm<G, FR>::recode(i, n, (int)c, scalars, digits, counts);
    }

    PL_HD static void accumulate(ull tid, ull threads, const u64 *points, const u32 *sorted, const u32 *offsets,
                                 const u32 *task_offsets, u64 *partials, ull n, u32 nw, u32 nb, ull max_tasks) {
        for (ull t = tid; t < nw * max_tasks; t += threads)
            msm_reduce<G, FR>::accumulate(t, n, nb, max_tasks, points, sorted, offsets, task_offsets, partials);
    }

    PL_HD static void merge_groups(ull tid, ull threads, const u64 *partials, const u32 *task_offsets,
                                   const u32 *group_offsets, u64 *group_sums, u32 nw, u32 nb, ull max_tasks,
                                   ull max_groups) {
        for (ull t = tid; t < nw * max_groups; t += threads)
            msm_reduce<G, FR>::merge_group(t, nb, max_tasks, max_groups, partials, task_offsets, group_offsets,
                                            group_sums);
    }

    PL_HD static void merge(ull tid, ull threads, const u64 *partials, const u32 *task_offsets, u64 *buckets,
                            u32 nw, u32 nb, ull max_tasks) {
        for (ull t = tid; t < (ull)nw * nb; t += threads)
            msm_reduce<G, FR>::merge(t, nb, max_tasks, partials, task_offsets, buckets);
    }

    PL_HD static void reduce_segments(ull tid, ull threads, const u64 *buckets, u64 *seg_t, u64 *seg_s, u32 nw,
                                      u32 nb, u32 len) {
        for (ull t = tid; t < (ull)nw * (nb / len); t += threads)
            msm_reduce<G, FR>::reduce_segment(t, nb, len, buckets, seg_t, seg_s);
    }

    PL_HD static void scale_segments(ull tid, ull threads, u64 *seg_t, const u64 *seg_s, u32 nw, u32 segs,
                                     u32 len_log2) {
        for (ull t = tid; t < (ull)nw * segs; t += threads)
            msm_reduce<G, FR>::scale_segment(t, segs, len_log2, seg_t, seg_s);
    }

    PL_HD static void sum_runs(ull tid, ull threads, const u64 *in, u64 *out, u32 nw, u32 count, u32 k) {
        const ull runs = (ull)nw * ((count + k - 1) / k);
        for (ull t = tid; t < runs; t += threads) msm_reduce<G, FR>::sum_run(t, count, k, in, out);
    }
};

typedef curve<g1<bn254_fp_params>, bn254_fr_params> bn254;
typedef curve<g1<bls12381_fp_params>, bls12381_fr_params> bls12381;
typedef curve<g2<bn254_fp_params>, bn254_fr_params> bn254_g2;
typedef curve<g2<bls12381_fp_params>, bls12381_fr_params> bls12381_g2;

}  // namespace msm_kernel
}  // namespace pl

#if defined(__CUDACC__)

#define PL_MSM_TID ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x)
#define PL_MSM_THREADS ((unsigned long long)gridDim.x * blockDim.x)

extern "C" __global__ void pl_msm_gather_scalars(const pl::u64 *scalars, const pl::u32 *index, pl::u64 *out,
                                                  unsigned long long n) {
    pl::msm_kernel::gather_scalars(PL_MSM_TID, PL_MSM_THREADS, scalars, index, out, n);
}

extern "C" __global__ void pl_msm_clear_u32(pl::u32 *p, unsigned long long count) {
    pl::msm_kernel::clear_u32(PL_MSM_TID, PL_MSM_THREADS, p, count);
}

extern "C" __global__ void pl_msm_chunk_sums(const pl::u32 *counts, pl::u32 *sums, pl::u32 nw, pl::u32 nb) {
    pl::msm_kernel::chunk_sums(PL_MSM_TID, PL_MSM_THREADS, counts, sums, nw, nb);
}

extern "C" __global__ void pl_msm_scan(const pl::u32 *counts, const pl::u32 *sums, pl::u32 *offsets,
                                       pl::u32 *cursor, pl::u32 nw, pl::u32 nb) {
    pl::msm_kernel::scan(PL_MSM_TID, PL_MSM_THREADS, counts, sums, offsets, cursor, nw, nb);
}

extern "C" __global__ void pl_msm_task_counts(const pl::u32 *counts, pl::u32 *task_counts, pl::u32 nw,
                                              pl::u32 nb) {
    pl::msm_kernel::task_counts(PL_MSM_TID, PL_MSM_THREADS, counts, task_counts, nw, nb);
}

extern "C" __global__ void pl_msm_scatter(const pl::u32 *digits, pl::u32 *cursor, pl::u32 *sorted,
                                          unsigned long long n, pl::u32 nw, pl::u32 nb) {
    pl::msm_kernel::scatter(PL_MSM_TID, PL_MSM_THREADS, digits, cursor, sorted, n, nw, nb);
}

#define PL_MSM_KERNELS(name)                                                                            \
    extern "C" __global__ void pl_##name##_msm_recode(const pl::u64 *scalars, pl::u32 *digits,          \
                                                      pl::u32 *counts, unsigned long long n, pl::u32 c) { \
        pl::msm_kernel::name::recode(PL_MSM_TID, PL_MSM_THREADS, scalars, digits, counts, n, c);        \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_accumulate(                                             \
        const pl::u64 *points, const pl::u32 *sorted, const pl::u32 *offsets, const pl::u32 *task_offsets, \
        pl::u64 *partials, unsigned long long n, pl::u32 nw, pl::u32 nb, unsigned long long max_tasks) {  \
        pl::msm_kernel::name::accumulate(PL_MSM_TID, PL_MSM_THREADS, points, sorted, offsets, task_offsets, \
                                         partials, n, nw, nb, max_tasks);                               \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_merge_groups(                                           \
        const pl::u64 *partials, const pl::u32 *task_offsets, const pl::u32 *group_offsets,              \
        pl::u64 *group_sums, pl::u32 nw, pl::u32 nb, unsigned long long max_tasks,                       \
        unsigned long long max_groups) {                                                                 \
        pl::msm_kernel::name::merge_groups(PL_MSM_TID, PL_MSM_THREADS, partials, task_offsets, group_offsets, \
                                           group_sums, nw, nb, max_tasks, max_groups);                  \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_merge(const pl::u64 *partials, const pl::u32 *task_offsets, \
                                                     pl::u64 *buckets, pl::u32 nw, pl::u32 nb,          \
                                                     unsigned long long max_tasks) {                    \
        pl::msm_kernel::name::merge(PL_MSM_TID, PL_MSM_THREADS, partials, task_offsets, buckets, nw, nb, max_tasks); \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_reduce_segments(const pl::u64 *buckets, pl::u64 *seg_t,   \
                                                               pl::u64 *seg_s, pl::u32 nw, pl::u32 nb,  \
                                                               pl::u32 len) {                           \
        pl::msm_kernel::name::reduce_segments(PL_MSM_TID, PL_MSM_THREADS, buckets, seg_t, seg_s, nw, nb, len); \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_scale_segments(pl::u64 *seg_t, const pl::u64 *seg_s,       \
                                                              pl::u32 nw, pl::u32 segs,                 \
                                                              pl::u32 len_log2) {                       \
        pl::msm_kernel::name::scale_segments(PL_MSM_TID, PL_MSM_THREADS, seg_t, seg_s, nw, segs, len_log2); \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_sum_runs(const pl::u64 *in, pl::u64 *out, pl::u32 nw,      \
                                                        pl::u32 count, pl::u32 k) {                     \
        pl::msm_kernel::name::sum_runs(PL_MSM_TID, PL_MSM_THREADS, in, out, nw, count, k);              \
    }

PL_MSM_KERNELS(bn254)
PL_MSM_KERNELS(bls12381)
PL_MSM_KERNELS(bn254_g2)
PL_MSM_KERNELS(bls12381_g2)

#endif
