// The operations of the arithmetic test programs, as __host__ __device__ functions over flat word
// arrays, so the host test program runs them on the CPU and the device test program in a kernel,
// the same code either way.
#pragma once

#include "g1.cuh"

namespace pl {
namespace test {

enum group_id { BN254_FR, BN254_FP, BLS12381_FR, BLS12381_FP, BN254_G1, BLS12381_G1, GROUPS };

enum op_id {
    // field operations: one or two elements in, one out
    F_MUL, F_SQR, F_ADD, F_SUB, F_DBL, F_NEG, F_TO_MONT, F_FROM_MONT,
    // G1 operations: Jacobian and affine points in, a Jacobian point out
    G_DBL, G_ADD, G_ADD_MIXED, G_NEG, G_FROM_AFFINE,
};

template <class P>
PL_HD void load(const u64 *w, fe<P> &r) {
    for (int i = 0; i < P::N; i++) r.l[i] = w[i];
}

template <class P>
PL_HD void store(u64 *w, const fe<P> &a) {
    for (int i = 0; i < P::N; i++) w[i] = a.l[i];
}

template <class P>
PL_HD void field_apply(int op, const u64 *in, u64 *out) {
    typedef field<P> F;
    fe<P> a, b, r;
    load(in, a);
    switch (op) {
    case F_MUL: load(in + P::N, b); F::mul(a, b, r); break;
    case F_ADD: load(in + P::N, b); F::add(a, b, r); break;
    case F_SUB: load(in + P::N, b); F::sub(a, b, r); break;
    case F_SQR: F::sqr(a, r); break;
    case F_DBL: F::dbl(a, r); break;
    case F_NEG: F::neg(a, r); break;
    case F_TO_MONT: F::to_mont(a, r); break;
    default: F::from_mont(a, r); break;
    }
    store(out, r);
}

template <class P>
PL_HD void load(const u64 *w, jacobian<P> &p) {
    load(w, p.x);
    load(w + P::N, p.y);
    load(w + 2 * P::N, p.z);
}

template <class P>
PL_HD void load(const u64 *w, affine<P> &p) {
    load(w, p.x);
    load(w + P::N, p.y);
}

template <class P>
PL_HD void g1_apply(int op, const u64 *in, u64 *out) {
    typedef g1<P> G;
    jacobian<P> p, q, r;
    affine<P> a;
    switch (op) {
    case G_DBL: load(in, p); G::dbl(p, r); break;
    case G_ADD: load(in, p); load(in + 3 * P::N, q); G::add(p, q, r); break;
    case G_ADD_MIXED: load(in, p); load(in + 3 * P::N, a); G::add_mixed(p, a, r); break;
    case G_NEG: load(in, p); G::neg(p, r); break;
    default: load(in, a); G::from_affine(a, r); break;
    }
    store(out, r.x);
    store(out + P::N, r.y);
    store(out + 2 * P::N, r.z);
}

/** Runs one operation of a group on flat words. */
PL_HD void apply(int group, int op, const u64 *in, u64 *out) {
    switch (group) {
    case BN254_FR: field_apply<bn254_fr_params>(op, in, out); break;
    case BN254_FP: field_apply<bn254_fp_params>(op, in, out); break;
    case BLS12381_FR: field_apply<bls12381_fr_params>(op, in, out); break;
    case BLS12381_FP: field_apply<bls12381_fp_params>(op, in, out); break;
    case BN254_G1: g1_apply<bn254_fp_params>(op, in, out); break;
    default: g1_apply<bls12381_fp_params>(op, in, out); break;
    }
}

}  // namespace test
}  // namespace pl
