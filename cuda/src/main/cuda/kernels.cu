// The kernels' entry points, compiled by nvcc into the fatbin resource dev/proofline/cuda/kernels.fatbin.
//
// Vectors are the Java layout: element i of an N-limb field at limbs [N i, N i + N), points as
// consecutive coordinates. Every entry point has C linkage, so its name in the module is as written.
#include "g1.cuh"

namespace pl {

template <class P>
__device__ __forceinline__ void load(const u64 *v, unsigned long long i, fe<P> &r) {
    PL_UNROLL for (int k = 0; k < P::N; k++) r.l[k] = v[i * P::N + k];
}

template <class P>
__device__ __forceinline__ void store(u64 *v, unsigned long long i, const fe<P> &a) {
    PL_UNROLL for (int k = 0; k < P::N; k++) v[i * P::N + k] = a.l[k];
}

template <class P>
__device__ __forceinline__ void mul_vec(const u64 *a, const u64 *b, u64 *r, unsigned long long n) {
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        fe<P> x, y;
        load(a, i, x);
        load(b, i, y);
        field<P>::mul(x, y, x);
        store(r, i, x);
    }
}

template <class P>
__device__ __forceinline__ void g1_add_mixed_vec(const u64 *p, const u64 *q, u64 *r, unsigned long long n) {
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        jacobian<P> a;
        affine<P> b;
        load(p, 3 * i, a.x);
        load(p, 3 * i + 1, a.y);
        load(p, 3 * i + 2, a.z);
        load(q, 2 * i, b.x);
        load(q, 2 * i + 1, b.y);
        g1<P>::add_mixed(a, b, a);
        store(r, 3 * i, a.x);
        store(r, 3 * i + 1, a.y);
        store(r, 3 * i + 2, a.z);
    }
}

}  // namespace pl

/** r[i] = a[i] * b[i] (Montgomery form), n elements. */
#define PL_FIELD_KERNELS(name, P)                                                                   \
    extern "C" __global__ void pl_##name##_mul_vec(const pl::u64 *a, const pl::u64 *b, pl::u64 *r, \
                                                   unsigned long long n) {                         \
        pl::mul_vec<P>(a, b, r, n);                                                                \
    }

/** r[i] = p[i] + q[i], p Jacobian, q affine, r Jacobian, n points. */
#define PL_G1_KERNELS(name, P)                                                                      \
    extern "C" __global__ void pl_##name##_g1_add_mixed_vec(const pl::u64 *p, const pl::u64 *q,     \
                                                            pl::u64 *r, unsigned long long n) {    \
        pl::g1_add_mixed_vec<P>(p, q, r, n);                                                       \
    }

PL_FIELD_KERNELS(bn254_fr, pl::bn254_fr_params)
PL_FIELD_KERNELS(bn254_fp, pl::bn254_fp_params)
PL_FIELD_KERNELS(bls12381_fr, pl::bls12381_fr_params)
PL_FIELD_KERNELS(bls12381_fp, pl::bls12381_fp_params)
PL_G1_KERNELS(bn254, pl::bn254_fp_params)
PL_G1_KERNELS(bls12381, pl::bls12381_fp_params)

#include "ntt_kernels.cuh"
#include "msm_kernels.cuh"
#include "abc.cuh"

/** a, b, c of the domain's count rows from a key's grouped coefficients and the witness (abc.cuh). */
#define PL_ABC_KERNELS(name, P)                                                                     \
    extern "C" __global__ void pl_##name##_abc(const pl::u32 *rows, const pl::u32 *signals,        \
                                               const pl::u64 *values, const pl::u64 *w,            \
                                               pl::u64 *a, pl::u64 *b, pl::u64 *c,                 \
                                               unsigned long long count) {                         \
        const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;    \
        if (i >= count) return;                                                                     \
        pl::abc_row<P>(i, rows, signals, values, w, a, b, c, count);                                \
    }

PL_ABC_KERNELS(bn254_fr, pl::bn254_fr_params)
PL_ABC_KERNELS(bls12381_fr, pl::bls12381_fr_params)
