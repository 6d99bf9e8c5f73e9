// The quadratic extension Fp2 = Fp[u]/(u^2 + 1) of a prime field of field.cuh (BN254 and BLS12-381
// both use it: q = 3 mod 4, so -1 is not a square), the coordinate field of G2.
//
// An element c0 + c1 u is c0 then c1 in memory, each the base field's N words: the layout of the Java
// Fp2, so vectors of G2 points go between the JVM and the GPU unchanged. Results are fully reduced and
// may alias inputs.
#pragma once

#include "g1.cuh"

namespace pl {

template <class P>
struct fe2 {
    fe<P> c0, c1;
};

template <class P>
struct field2 {
    typedef field<P> B;
    typedef fe2<P> T;
    static constexpr int WORDS = 2 * P::N;

    PL_HD static void load(const u64 *s, T &r) {
        B::load(s, r.c0);
        B::load(s + P::N, r.c1);
    }

    PL_HD static void store(u64 *d, const T &a) {
        B::store(d, a.c0);
        B::store(d + P::N, a.c1);
    }

    PL_HD static void set_zero(T &r) {
        B::set_zero(r.c0);
        B::set_zero(r.c1);
    }

    PL_HD static void set_one(T &r) {
        B::set_one(r.c0);
        B::set_zero(r.c1);
    }

    PL_HD static bool is_zero(const T &a) {
        return B::is_zero(a.c0) && B::is_zero(a.c1);
    }

    PL_HD static bool eq(const T &a, const T &b) {
        return B::eq(a.c0, b.c0) && B::eq(a.c1, b.c1);
    }

    PL_HD static void add(const T &a, const T &b, T &r) {
        B::add(a.c0, b.c0, r.c0);
        B::add(a.c1, b.c1, r.c1);
    }

    PL_HD static void dbl(const T &a, T &r) {
        B::dbl(a.c0, r.c0);
        B::dbl(a.c1, r.c1);
    }

    PL_HD static void sub(const T &a, const T &b, T &r) {
        B::sub(a.c0, b.c0, r.c0);
        B::sub(a.c1, b.c1, r.c1);
    }

    PL_HD static void neg(const T &a, T &r) {
        B::neg(a.c0, r.c0);
        B::neg(a.c1, r.c1);
    }

    /** Karatsuba: v0 = a0 b0, v1 = a1 b1; c0 = v0 - v1, c1 = (a0 + a1)(b0 + b1) - v0 - v1. */
    PL_HD static void mul(const T &a, const T &b, T &r) {
        fe<P> v0, v1, s, t;
        B::mul(a.c0, b.c0, v0);
        B::mul(a.c1, b.c1, v1);
        B::add(a.c0, a.c1, s);
        B::add(b.c0, b.c1, t);
        B::mul(s, t, s);
        B::sub(s, v0, s);
        B::sub(s, v1, r.c1);
        B::sub(v0, v1, r.c0);
    }

    /** (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: two base products. */
    PL_HD static void sqr(const T &a, T &r) {
        fe<P> s, d, m;
        B::add(a.c0, a.c1, s);
        B::sub(a.c0, a.c1, d);
        B::mul(a.c0, a.c1, m);
        B::mul(s, d, r.c0);
        B::dbl(m, r.c1);
    }
};

/** G2 over Fp2 of the base field of parameters P (the twist's b is not needed by the formulas). */
template <class P>
using g2 = curve_points<field2<P>>;

}  // namespace pl
