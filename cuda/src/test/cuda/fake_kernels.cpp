// The MSM, NTT and a, b, c kernels for the tests' fake driver (src/test/c/fake_cuda.c loads this library with
// fake_load_kernels and runs fake_kernel_<entry point> for a launch of that entry point): each runs the
// kernel's body on the CPU for every thread of the grid, one thread after another, with the launch's
// parameters read from its void*[] by the body's own parameter types. The MSM kernels are the bodies of
// msm_kernels.cuh; the NTT kernels run the per-thread functions of ntt.cuh as ntt_kernels.cuh does
// (ntt_block: each thread block's steps, every thread of a step before the next step, as the barriers
// order them); the a, b, c kernel runs abc_row of abc.cuh for each thread. So CudaMsm's, CudaNtt's and
// CudaCoefficients' launches, buffers and arguments are exercised without a GPU.
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "abc.cuh"
#include "msm_kernels.cuh"
#include "ntt.cuh"

namespace {

template <class... A, std::size_t... I>
void run(void (*body)(unsigned long long, unsigned long long, A...), unsigned long long threads, void **params,
         std::index_sequence<I...>) {
    for (unsigned long long t = 0; t < threads; t++) {
        body(t, threads, *static_cast<std::remove_reference_t<A> *>(params[I])...);
    }
}

template <class... A>
int launch(void (*body)(unsigned long long, unsigned long long, A...), unsigned gx, unsigned bx, void **params) {
    run(body, (unsigned long long)gx * bx, params, std::index_sequence_for<A...>{});
    return 0;
}

}  // namespace

#define PL_FAKE_KERNEL(entry, body)                                                       \
    extern "C" int fake_kernel_##entry(unsigned gx, unsigned bx, void **params) {        \
        return launch(body, gx, bx, params);                                             \
    }

PL_FAKE_KERNEL(pl_msm_gather_scalars, pl::msm_kernel::gather_scalars)
PL_FAKE_KERNEL(pl_msm_clear_u32, pl::msm_kernel::clear_u32)
PL_FAKE_KERNEL(pl_msm_chunk_sums, pl::msm_kernel::chunk_sums)
PL_FAKE_KERNEL(pl_msm_scan, pl::msm_kernel::scan)
PL_FAKE_KERNEL(pl_msm_scatter, pl::msm_kernel::scatter)
PL_FAKE_KERNEL(pl_msm_task_counts, pl::msm_kernel::task_counts)
PL_FAKE_KERNEL(pl_bn254_msm_recode, pl::msm_kernel::bn254::recode)
PL_FAKE_KERNEL(pl_bn254_msm_accumulate, pl::msm_kernel::bn254::accumulate)
PL_FAKE_KERNEL(pl_bn254_msm_merge_groups, pl::msm_kernel::bn254::merge_groups)
PL_FAKE_KERNEL(pl_bn254_msm_merge, pl::msm_kernel::bn254::merge)
PL_FAKE_KERNEL(pl_bn254_msm_reduce_segments, pl::msm_kernel::bn254::reduce_segments)
PL_FAKE_KERNEL(pl_bn254_msm_scale_segments, pl::msm_kernel::bn254::scale_segments)
PL_FAKE_KERNEL(pl_bn254_msm_sum_runs, pl::msm_kernel::bn254::sum_runs)
PL_FAKE_KERNEL(pl_bls12381_msm_recode, pl::msm_kernel::bls12381::recode)
PL_FAKE_KERNEL(pl_bls12381_msm_accumulate, pl::msm_kernel::bls12381::accumulate)
PL_FAKE_KERNEL(pl_bls12381_msm_merge_groups, pl::msm_kernel::bls12381::merge_groups)
PL_FAKE_KERNEL(pl_bls12381_msm_merge, pl::msm_kernel::bls12381::merge)
PL_FAKE_KERNEL(pl_bls12381_msm_reduce_segments, pl::msm_kernel::bls12381::reduce_segments)
PL_FAKE_KERNEL(pl_bls12381_msm_scale_segments, pl::msm_kernel::bls12381::scale_segments)
PL_FAKE_KERNEL(pl_bls12381_msm_sum_runs, pl::msm_kernel::bls12381::sum_runs)
PL_FAKE_KERNEL(pl_bn254_g2_msm_recode, pl::msm_kernel::bn254_g2::recode)
PL_FAKE_KERNEL(pl_bn254_g2_msm_accumulate, pl::msm_kernel::bn254_g2::accumulate)
PL_FAKE_KERNEL(pl_bn254_g2_msm_merge_groups, pl::msm_kernel::bn254_g2::merge_groups)
PL_FAKE_KERNEL(pl_bn254_g2_msm_merge, pl::msm_kernel::bn254_g2::merge)
PL_FAKE_KERNEL(pl_bn254_g2_msm_reduce_segments, pl::msm_kernel::bn254_g2::reduce_segments)
PL_FAKE_KERNEL(pl_bn254_g2_msm_scale_segments, pl::msm_kernel::bn254_g2::scale_segments)
PL_FAKE_KERNEL(pl_bn254_g2_msm_sum_runs, pl::msm_kernel::bn254_g2::sum_runs)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_recode, pl::msm_kernel::bls12381_g2::recode)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_accumulate, pl::msm_kernel::bls12381_g2::accumulate)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_merge_groups, pl::msm_kernel::bls12381_g2::merge_groups)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_merge, pl::msm_kernel::bls12381_g2::merge)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_reduce_segments, pl::msm_kernel::bls12381_g2::reduce_segments)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_scale_segments, pl::msm_kernel::bls12381_g2::scale_segments)
PL_FAKE_KERNEL(pl_bls12381_g2_msm_sum_runs, pl::msm_kernel::bls12381_g2::sum_runs)

// ---- the NTT (ntt_kernels.cuh): each kernel's last parameter is its thread count ----

namespace {

using pl::u32;
using pl::u64;

template <class T>
T param(void **params, int i) {
    return *static_cast<T *>(params[i]);
}

/** The threads of a launch that do work: those below the count (the kernels return for the others). */
u64 live_threads(unsigned gx, unsigned bx, u64 count) {
    const u64 threads = (u64)gx * bx;
    return threads < count ? threads : count;
}

/** A step of a thread block: every thread's part, one after another (the barrier is the loop's end). */
struct host_barrier {
    u64 threads;
    template <class F>
    void operator()(F f) {
        for (u64 t = 0; t < threads; t++) f((u32)t);
    }
};

template <class P>
int ntt_bit_reverse(unsigned gx, unsigned bx, void **params) {
    u64 *a = param<u64 *>(params, 0);
    const u32 log_n = param<u32>(params, 1);
    const u64 n = live_threads(gx, bx, param<unsigned long long>(params, 2));
    for (u64 i = 0; i < n; i++) pl::ntt_bit_reverse<P>(i, a, log_n);
    return 0;
}

template <class P>
int ntt_reverse_tail(unsigned gx, unsigned bx, void **params) {
    u64 *a = param<u64 *>(params, 0);
    const u64 *c = param<const u64 *>(params, 1);
    const u32 log_n = param<u32>(params, 2);
    const u64 n = live_threads(gx, bx, param<unsigned long long>(params, 3));
    for (u64 i = 0; i < n; i++) pl::ntt_reverse_tail<P>(i, a, c, log_n);
    return 0;
}

template <class P>
int ntt_scale(unsigned gx, unsigned bx, void **params) {
    u64 *a = param<u64 *>(params, 0);
    const u64 *low = param<const u64 *>(params, 1);
    const u64 *high = param<const u64 *>(params, 2);
    const u32 low_bits = param<u32>(params, 3);
    const u64 n = live_threads(gx, bx, param<unsigned long long>(params, 4));
    for (u64 i = 0; i < n; i++) pl::ntt_scale<P>(i, a, low, high, low_bits);
    return 0;
}

template <class P>
int ntt_block(unsigned gx, unsigned bx, void **params) {
    u64 *a = param<u64 *>(params, 0);
    const u64 *tw = param<const u64 *>(params, 1);
    const u64 *low = param<const u64 *>(params, 2);
    const u64 *high = param<const u64 *>(params, 3);
    const u32 low_bits = param<u32>(params, 4);
    const u32 s0 = param<u32>(params, 5);
    const u32 k = param<u32>(params, 6);
    const u32 mode = param<u32>(params, 7);
    if (k < 1 || k > NTT_MAX_BLOCK_LOG || bx != (1u << (k - 1))) return 1;  // the block is one group's threads
    std::vector<u64> shared((size_t)P::N << NTT_MAX_BLOCK_LOG);
    host_barrier each{bx};
    for (u64 g = 0; g < gx; g++) {
        pl::ntt_block_steps<P>(each, g, s0, k, mode, a, shared.data(), tw, low, high, low_bits);
    }
    return 0;
}

template <class P>
int ntt_h(unsigned gx, unsigned bx, void **params) {
    const u64 *a = param<const u64 *>(params, 0);
    const u64 *b = param<const u64 *>(params, 1);
    const u64 *c = param<const u64 *>(params, 2);
    u64 *h = param<u64 *>(params, 3);
    const u64 n = live_threads(gx, bx, param<unsigned long long>(params, 4));
    for (u64 i = 0; i < n; i++) pl::ntt_h<P>(i, a, b, c, h);
    return 0;
}

template <class P>
int abc(unsigned gx, unsigned bx, void **params) {
    const u32 *rows = param<const u32 *>(params, 0);
    const u32 *signals = param<const u32 *>(params, 1);
    const u64 *values = param<const u64 *>(params, 2);
    const u64 *w = param<const u64 *>(params, 3);
    u64 *a = param<u64 *>(params, 4);
    u64 *b = param<u64 *>(params, 5);
    u64 *c = param<u64 *>(params, 6);
    const u64 count = param<unsigned long long>(params, 7);
    const u64 n = live_threads(gx, bx, count);
    for (u64 i = 0; i < n; i++) pl::abc_row<P>(i, rows, signals, values, w, a, b, c, count);
    return 0;
}

}  // namespace

#define PL_FAKE_FR(name, P)                                                                                   \
    extern "C" int fake_kernel_pl_##name##_ntt_bit_reverse(unsigned gx, unsigned bx, void **p) {             \
        return ntt_bit_reverse<P>(gx, bx, p);                                                                \
    }                                                                                                          \
    extern "C" int fake_kernel_pl_##name##_ntt_reverse_tail(unsigned gx, unsigned bx, void **p) {            \
        return ntt_reverse_tail<P>(gx, bx, p);                                                               \
    }                                                                                                          \
    extern "C" int fake_kernel_pl_##name##_ntt_scale(unsigned gx, unsigned bx, void **p) {                   \
        return ntt_scale<P>(gx, bx, p);                                                                      \
    }                                                                                                          \
    extern "C" int fake_kernel_pl_##name##_ntt_block(unsigned gx, unsigned bx, void **p) {                   \
        return ntt_block<P>(gx, bx, p);                                                                      \
    }                                                                                                          \
    extern "C" int fake_kernel_pl_##name##_ntt_h(unsigned gx, unsigned bx, void **p) {                       \
        return ntt_h<P>(gx, bx, p);                                                                          \
    }                                                                                                          \
    extern "C" int fake_kernel_pl_##name##_abc(unsigned gx, unsigned bx, void **p) {                         \
        return abc<P>(gx, bx, p);                                                                            \
    }

PL_FAKE_FR(bn254_fr, pl::bn254_fr_params)
PL_FAKE_FR(bls12381_fr, pl::bls12381_fr_params)
