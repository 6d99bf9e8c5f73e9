// The MSM's kernels (entry points with C linkage, names also in KernelImage.MSM_ENTRY_POINTS): thin
// grid-stride wrappers of the per-thread steps of msm.cuh, in the order CudaMsm launches them:
//
//   pl_msm_clear_u32(u32 *p, u64 count)
//   pl_<curve>_msm_recode(const u64 *scalars, u32 *digits, u32 *counts, u64 n, u32 c)
//   pl_msm_scan(const u32 *counts, u32 *offsets, u32 *cursor, u32 nw, u32 nb)
//   pl_msm_scatter(const u32 *digits, u32 *cursor, u32 *sorted, u64 n, u32 nw, u32 nb)
//   pl_<curve>_msm_accumulate(const u64 *points, const u32 *sorted, const u32 *offsets, u64 *buckets,
//                             u64 n, u32 nw, u32 nb)
//   pl_<curve>_msm_reduce_segments(const u64 *buckets, u64 *seg_t, u64 *seg_s, u32 nw, u32 nb, u32 len)
//   pl_<curve>_msm_reduce_windows(const u64 *seg_t, const u64 *seg_s, u64 *windows, u32 nw, u32 segs,
//                                 u32 len_log2)
//   pl_<curve>_msm_combine(const u64 *windows, u64 *result, u32 nw, u32 c)
//
// Included by kernels.cu.
#pragma once

#include "msm.cuh"

#define PL_MSM_FOR(i, count)                                                                          \
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < (count); \
         i += (unsigned long long)gridDim.x * blockDim.x)

extern "C" __global__ void pl_msm_clear_u32(pl::u32 *p, unsigned long long count) {
    PL_MSM_FOR(i, count) p[i] = 0;
}

extern "C" __global__ void pl_msm_scan(const pl::u32 *counts, pl::u32 *offsets, pl::u32 *cursor, pl::u32 nw,
                                       pl::u32 nb) {
    PL_MSM_FOR(w, nw) pl::msm_scan(w, nb, counts, offsets, cursor);
}

extern "C" __global__ void pl_msm_scatter(const pl::u32 *digits, pl::u32 *cursor, pl::u32 *sorted,
                                          unsigned long long n, pl::u32 nw, pl::u32 nb) {
    PL_MSM_FOR(t, n * nw) pl::msm_scatter(t, n, nb, digits, cursor, sorted);
}

#define PL_MSM_KERNELS(name, FP, FR)                                                                   \
    extern "C" __global__ void pl_##name##_msm_recode(const pl::u64 *scalars, pl::u32 *digits,          \
                                                      pl::u32 *counts, unsigned long long n, pl::u32 c) { \
        PL_MSM_FOR(i, n) pl::msm<FP, FR>::recode(i, n, (int)c, scalars, digits, counts);                \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_accumulate(const pl::u64 *points, const pl::u32 *sorted,  \
                                                          const pl::u32 *offsets, pl::u64 *buckets,     \
                                                          unsigned long long n, pl::u32 nw, pl::u32 nb) { \
        PL_MSM_FOR(t, (unsigned long long)nw * nb)                                                      \
            pl::msm_reduce<FP, FR>::accumulate(t, n, nb, points, sorted, offsets, buckets);             \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_reduce_segments(const pl::u64 *buckets, pl::u64 *seg_t,   \
                                                               pl::u64 *seg_s, pl::u32 nw, pl::u32 nb,  \
                                                               pl::u32 len) {                           \
        PL_MSM_FOR(t, (unsigned long long)nw * (nb / len))                                              \
            pl::msm_reduce<FP, FR>::reduce_segment(t, nb, len, buckets, seg_t, seg_s);                  \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_reduce_windows(const pl::u64 *seg_t, const pl::u64 *seg_s, \
                                                              pl::u64 *windows, pl::u32 nw,             \
                                                              pl::u32 segs, pl::u32 len_log2) {         \
        PL_MSM_FOR(w, nw) pl::msm_reduce<FP, FR>::reduce_window(w, segs, len_log2, seg_t, seg_s, windows); \
    }                                                                                                   \
    extern "C" __global__ void pl_##name##_msm_combine(const pl::u64 *windows, pl::u64 *result,          \
                                                       pl::u32 nw, pl::u32 c) {                         \
        if (blockIdx.x == 0 && threadIdx.x == 0) pl::msm_reduce<FP, FR>::combine(nw, (int)c, windows, result); \
    }

PL_MSM_KERNELS(bn254, pl::bn254_fp_params, pl::bn254_fr_params)
PL_MSM_KERNELS(bls12381, pl::bls12381_fp_params, pl::bls12381_fr_params)
