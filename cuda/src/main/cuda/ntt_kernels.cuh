// The NTT kernels' entry points (C linkage), included by kernels.cu: each runs one function of ntt.cuh
// for every thread index below its last parameter, count. Names: pl_<field>_ntt_<function>, for
// bn254_fr and bls12381_fr (also in KernelImage.NTT_ENTRY_POINTS).
#pragma once

#include "ntt.cuh"

#define PL_NTT_THREAD                                                                               \
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;        \
    if (i >= count) return

#define PL_NTT_KERNELS(name, P)                                                                     \
    extern "C" __global__ void pl_##name##_ntt_bit_reverse(pl::u64 *a, unsigned log_n,             \
                                                           unsigned long long count) {             \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_bit_reverse<P>(i, a, log_n);                                                        \
    }                                                                                               \
    extern "C" __global__ void pl_##name##_ntt_dit_stage(pl::u64 *a, const pl::u64 *tw, unsigned s, \
                                                         unsigned long long count) {               \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_dit_stage<P>(i, a, tw, s);                                                          \
    }                                                                                               \
    extern "C" __global__ void pl_##name##_ntt_dif_stage(pl::u64 *a, const pl::u64 *tw, unsigned s, \
                                                         unsigned long long count) {               \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_dif_stage<P>(i, a, tw, s);                                                          \
    }                                                                                               \
    extern "C" __global__ void pl_##name##_ntt_reverse_tail(pl::u64 *a, const pl::u64 *c,          \
                                                            unsigned log_n,                        \
                                                            unsigned long long count) {            \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_reverse_tail<P>(i, a, c, log_n);                                                    \
    }                                                                                               \
    extern "C" __global__ void pl_##name##_ntt_scale(pl::u64 *a, const pl::u64 *low,               \
                                                     const pl::u64 *high, unsigned low_bits,       \
                                                     unsigned long long count) {                   \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_scale<P>(i, a, low, high, low_bits);                                                \
    }                                                                                               \
    extern "C" __global__ void pl_##name##_ntt_h(const pl::u64 *a, const pl::u64 *b,              \
                                                 const pl::u64 *c, pl::u64 *h,                     \
                                                 unsigned long long count) {                       \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_h<P>(i, a, b, c, h);                                                                \
    }

PL_NTT_KERNELS(bn254_fr, pl::bn254_fr_params)
PL_NTT_KERNELS(bls12381_fr, pl::bls12381_fr_params)
