// The MSM kernels for the tests' fake driver (src/test/c/fake_cuda.c loads this library with
// fake_load_kernels and runs fake_kernel_<entry point> for a launch of that entry point): each runs the
// kernel's body of msm_kernels.cuh on the CPU for every thread of the grid, one thread after another,
// with the launch's parameters read from its void*[] by the body's own parameter types. So CudaMsm's
// launches, buffers and arguments are exercised without a GPU.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "msm_kernels.cuh"

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
PL_FAKE_KERNEL(pl_bn254_msm_reduce_windows, pl::msm_kernel::bn254::reduce_windows)
PL_FAKE_KERNEL(pl_bn254_msm_combine, pl::msm_kernel::bn254::combine)
PL_FAKE_KERNEL(pl_bls12381_msm_recode, pl::msm_kernel::bls12381::recode)
PL_FAKE_KERNEL(pl_bls12381_msm_accumulate, pl::msm_kernel::bls12381::accumulate)
PL_FAKE_KERNEL(pl_bls12381_msm_merge_groups, pl::msm_kernel::bls12381::merge_groups)
PL_FAKE_KERNEL(pl_bls12381_msm_merge, pl::msm_kernel::bls12381::merge)
PL_FAKE_KERNEL(pl_bls12381_msm_reduce_segments, pl::msm_kernel::bls12381::reduce_segments)
PL_FAKE_KERNEL(pl_bls12381_msm_reduce_windows, pl::msm_kernel::bls12381::reduce_windows)
PL_FAKE_KERNEL(pl_bls12381_msm_combine, pl::msm_kernel::bls12381::combine)
