// Point arithmetic on y^2 = x^3 + b (a = 0) over a coordinate field F: G1 over a prime field of
// field.cuh, G2 over its quadratic extension (fp2.cuh). The formulas do not use b.
//
// Layouts, as in the Java curve code (w = words of a coordinate: the prime field's limbs, or twice that):
//   affine:   x, y     (2w limbs); the point at infinity is (0, 0);
//   Jacobian: X, Y, Z  (3w limbs) standing for (X/Z^2, Y/Z^3); infinity has Z = 0 and is written
//             as (1, 1, 0) when it is produced.
// Formulas (Explicit-Formulas Database, a = 0): dbl-2009-l, add-2007-bl, madd-2007-bl, with the
// same handling of infinity and of equal or opposite inputs as the Java code, so results agree
// limb for limb. Results may alias inputs.
#pragma once

#include "field.cuh"

namespace pl {

template <class F>
struct affine_point {
    typename F::T x, y;
};

template <class F>
struct jacobian_point {
    typename F::T x, y, z;
};

/** The point operations over the coordinate field F (its element type F::T). */
template <class F_>
struct curve_points {
    typedef F_ F;
    typedef typename F::T E;
    typedef affine_point<F> A;
    typedef jacobian_point<F> J;

    PL_HD static bool is_infinity(const J &p) {
        return F::is_zero(p.z);
    }

    PL_HD static bool is_infinity(const A &p) {
        return F::is_zero(p.x) && F::is_zero(p.y);
    }

    PL_HD static void set_infinity(J &r) {
        F::set_one(r.x);
        F::set_one(r.y);
        F::set_zero(r.z);
    }

    PL_HD static void from_affine(const A &a, J &r) {
        if (is_infinity(a)) {
            set_infinity(r);
            return;
        }
        r.x = a.x;
        r.y = a.y;
        F::set_one(r.z);
    }

    PL_HD static void neg(const J &p, J &r) {
        r.x = p.x;
        F::neg(p.y, r.y);
        r.z = p.z;
    }

    PL_HD static void neg(const A &p, A &r) {
        r.x = p.x;
        F::neg(p.y, r.y);
    }

    /** r = 2p (dbl-2009-l). */
    PL_HD static void dbl(const J &p, J &r) {
        if (is_infinity(p)) {
            r = p;
            return;
        }
        E a, b, c, d, e, f, z3, x3, y3;
        F::sqr(p.x, a);          // A = X1^2
        F::sqr(p.y, b);          // B = Y1^2
        F::sqr(b, c);            // C = B^2
        F::add(p.x, b, d);
        F::sqr(d, d);
        F::sub(d, a, d);
        F::sub(d, c, d);
        F::dbl(d, d);            // D = 2((X1 + B)^2 - A - C)
        F::dbl(a, e);
        F::add(e, a, e);         // E = 3A
        F::sqr(e, f);            // F = E^2
        F::mul(p.y, p.z, z3);
        F::dbl(z3, z3);          // Z3 = 2 Y1 Z1
        F::sub(f, d, x3);
        F::sub(x3, d, x3);       // X3 = F - 2D
        F::sub(d, x3, y3);
        F::mul(e, y3, y3);       // E (D - X3)
        F::dbl(c, c);
        F::dbl(c, c);
        F::dbl(c, c);            // 8C
        F::sub(y3, c, y3);       // Y3 = E (D - X3) - 8C
        r.x = x3;
        r.y = y3;
        r.z = z3;
    }

    /** r = p + q, both Jacobian (add-2007-bl). */
    PL_HD static void add(const J &p, const J &q, J &r) {
        if (is_infinity(p)) {
            r = q;
            return;
        }
        if (is_infinity(q)) {
            r = p;
            return;
        }
        E z1z1, z2z2, u1, u2, s1, s2, h, rr;
        F::sqr(p.z, z1z1);
        F::sqr(q.z, z2z2);
        F::mul(p.x, z2z2, u1);   // U1 = X1 Z2Z2
        F::mul(q.x, z1z1, u2);   // U2 = X2 Z1Z1
        F::mul(p.y, q.z, s1);
        F::mul(s1, z2z2, s1);    // S1 = Y1 Z2 Z2Z2
        F::mul(q.y, p.z, s2);
        F::mul(s2, z1z1, s2);    // S2 = Y2 Z1 Z1Z1
        F::sub(u2, u1, h);       // H = U2 - U1
        F::sub(s2, s1, rr);
        if (F::is_zero(h)) {
            if (F::is_zero(rr)) {
                dbl(p, r);
            } else {
                set_infinity(r);
            }
            return;
        }
        E i, j, v, x3, y3, z3;
        F::dbl(rr, rr);          // r = 2 (S2 - S1)
        F::dbl(h, i);
        F::sqr(i, i);            // I = (2H)^2
        F::mul(h, i, j);         // J = H I
        F::mul(u1, i, v);        // V = U1 I
        F::add(p.z, q.z, z3);
        F::sqr(z3, z3);
        F::sub(z3, z1z1, z3);
        F::sub(z3, z2z2, z3);
        F::mul(z3, h, z3);       // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        F::sqr(rr, x3);
        F::sub(x3, j, x3);
        F::sub(x3, v, x3);
        F::sub(x3, v, x3);       // X3 = r^2 - J - 2V
        F::sub(v, x3, y3);
        F::mul(rr, y3, y3);
        F::mul(s1, j, s1);
        F::dbl(s1, s1);
        F::sub(y3, s1, y3);      // Y3 = r (V - X3) - 2 S1 J
        r.x = x3;
        r.y = y3;
        r.z = z3;
    }

    /** r = p + q, p Jacobian and q affine (madd-2007-bl). */
    PL_HD static void add_mixed(const J &p, const A &q, J &r) {
        if (is_infinity(q)) {
            r = p;
            return;
        }
        if (is_infinity(p)) {
            from_affine(q, r);
            return;
        }
        E z1z1, u2, s2, h, rr;
        F::sqr(p.z, z1z1);
        F::mul(q.x, z1z1, u2);   // U2 = X2 Z1Z1
        F::mul(q.y, p.z, s2);
        F::mul(s2, z1z1, s2);    // S2 = Y2 Z1 Z1Z1
        F::sub(u2, p.x, h);      // H = U2 - X1
        F::sub(s2, p.y, rr);
        if (F::is_zero(h)) {
            if (F::is_zero(rr)) {
                dbl(p, r);
            } else {
                set_infinity(r);
            }
            return;
        }
        E hh, i, j, v, x3, y3, z3;
        F::dbl(rr, rr);          // r = 2 (S2 - Y1)
        F::sqr(h, hh);
        F::dbl(hh, i);
        F::dbl(i, i);            // I = 4 HH
        F::mul(h, i, j);         // J = H I
        F::mul(p.x, i, v);       // V = X1 I
        F::add(p.z, h, z3);
        F::sqr(z3, z3);
        F::sub(z3, z1z1, z3);
        F::sub(z3, hh, z3);      // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        E y1j;
        F::mul(p.y, j, y1j);     // Y1 J
        F::sqr(rr, x3);
        F::sub(x3, j, x3);
        F::sub(x3, v, x3);
        F::sub(x3, v, x3);       // X3 = r^2 - J - 2V
        F::sub(v, x3, y3);
        F::mul(rr, y3, y3);
        F::dbl(y1j, y1j);
        F::sub(y3, y1j, y3);     // Y3 = r (V - X3) - 2 Y1 J
        r.x = x3;
        r.y = y3;
        r.z = z3;
    }
};

/** G1 over the prime field of parameters P. */
template <class P>
using g1 = curve_points<field<P>>;
template <class P>
using affine = affine_point<field<P>>;
template <class P>
using jacobian = jacobian_point<field<P>>;

}  // namespace pl
