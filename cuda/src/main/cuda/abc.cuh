// a, b, c of a proof from its proving key's coefficients, one __host__ __device__ function per kernel
// thread (kernels.cu wraps it in the entry points pl_<field>_abc; the tests' fake driver runs it for
// every thread index on the CPU).
//
// A circom key's coefficient section lists (matrix, constraint, signal, value) for A (matrix 0) and B
// (matrix 1), in any order. CudaCoefficients groups it by row once, when the key is made resident:
//   rows     2n + 1 u32 offsets: row i of A is entries [rows[i], rows[i + 1]), row i of B entries
//            [rows[n + i], rows[n + i + 1]) (n the domain size)
//   signals  u32 per entry: the witness index
//   values   N words per entry: the key's value, the Montgomery form of (coefficient R), so that one
//            Montgomery product with the canonical witness value is coefficient * w in Montgomery form
// and per proof only the witness (canonical words, N per signal) comes to the device. Rows past the
// circuit's constraints are empty: their a, b, c are zero, so the kernel also clears the domain's tail.
//
//   abc   a_i = sum_A w_s v, b_i = sum_B w_s v, c_i = a_i b_i (Montgomery form)     n threads
//
// One thread sums a row: circom's rows are short (a few entries; long ones are rare), so the work is
// balanced well enough by the many rows a launch has.
#pragma once

#include "field.cuh"

namespace pl {

/** r = sum over entries [from, to) of values[e] w[signals[e]] (Montgomery products), zero witness values skipped. */
template <class P>
PL_HD void abc_sum(u32 from, u32 to, const u32 *signals, const u64 *values, const u64 *w, fe<P> &r) {
    typedef field<P> F;
    F::set_zero(r);
    for (u32 e = from; e < to; e++) {
        const u64 *ws = w + (u64)signals[e] * P::N;
        u64 any = 0;
        PL_UNROLL for (int k = 0; k < P::N; k++) any |= ws[k];
        if (any == 0) {
            continue;  // most of a bit-heavy witness
        }
        fe<P> x, v;
        F::load(ws, x);
        F::load(values + (u64)e * P::N, v);
        F::mul(x, v, x);
        F::add(r, x, r);
    }
}

/** Thread i: a_i, b_i and c_i = a_i b_i of a domain of n rows (the layout above). */
template <class P>
PL_HD void abc_row(u64 i, const u32 *rows, const u32 *signals, const u64 *values, const u64 *w, u64 *a, u64 *b,
                   u64 *c, u64 n) {
    typedef field<P> F;
    fe<P> x, y, z;
    abc_sum<P>(rows[i], rows[i + 1], signals, values, w, x);
    abc_sum<P>(rows[n + i], rows[n + i + 1], signals, values, w, y);
    F::mul(x, y, z);
    F::store(a + i * P::N, x);
    F::store(b + i * P::N, y);
    F::store(c + i * P::N, z);
}

}  // namespace pl
