// The NTT kernels' entry points (C linkage), included by kernels.cu: each runs one function of ntt.cuh
// for every thread index below its last parameter, count (ntt_block: a thread block of 2^(log_block - 1)
// threads for each group of 2^log_block elements, in shared memory). Names: pl_<field>_ntt_<function>, for
// bn254_fr and bls12381_fr (also in KernelImage.NTT_ENTRY_POINTS).
#pragma once

#include "ntt.cuh"

namespace pl {

/** A step for every thread of the block: this thread's part, then the barrier. */
struct ntt_block_barrier {
    template <class F>
    __device__ void operator()(F f) {
        f(threadIdx.x);
        __syncthreads();
    }
};

template <class P>
__device__ __forceinline__ void ntt_block_on_device(u64 *a, const u64 *tw, const u64 *low, const u64 *high,
                                                    unsigned low_bits, unsigned first_stage, unsigned log_block,
                                                    unsigned mode, u64 *shared) {
    ntt_block_barrier each;
    ntt_block_steps<P>(each, blockIdx.x, first_stage, log_block, mode, a, shared, tw, low, high, low_bits);
}

}  // namespace pl

#define PL_NTT_THREAD                                                                               \
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;        \
    if (i >= count) return

#define PL_NTT_KERNELS(name, P)                                                                     \
    extern "C" __global__ void pl_##name##_ntt_bit_reverse(pl::u64 *a, unsigned log_n,             \
                                                           unsigned long long count) {             \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_bit_reverse<P>(i, a, log_n);                                                        \
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
    extern "C" __global__ void pl_##name##_ntt_block(pl::u64 *a, const pl::u64 *tw, const pl::u64 *low,  \
                                                     const pl::u64 *high, unsigned low_bits,       \
                                                     unsigned first_stage, unsigned log_block,     \
                                                     unsigned mode, unsigned long long count) {    \
        __shared__ pl::u64 shared[P::N << NTT_MAX_BLOCK_LOG];                                       \
        (void)count;                                                                                \
        pl::ntt_block_on_device<P>(a, tw, low, high, low_bits, first_stage, log_block, mode, shared); \
    }                                                                                               \
    extern "C" __global__ void pl_##name##_ntt_h(const pl::u64 *a, const pl::u64 *b,              \
                                                 const pl::u64 *c, pl::u64 *h,                     \
                                                 unsigned long long count) {                       \
        PL_NTT_THREAD;                                                                              \
        pl::ntt_h<P>(i, a, b, c, h);                                                                \
    }

PL_NTT_KERNELS(bn254_fr, pl::bn254_fr_params)
PL_NTT_KERNELS(bls12381_fr, pl::bls12381_fr_params)
