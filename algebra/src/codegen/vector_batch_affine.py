#!/usr/bin/env python3
"""Writes the unrolled vector methods of VectorBatchAffine.java (between the GENERATED markers).

    python3 algebra/src/codegen/vector_batch_affine.py

The limb arithmetic is the NTT's (vector_butterflies.py): 8 field elements at a time, one per 64-bit
lane, 9 limbs of 29 bits. The Montgomery reduction differs: both operands of every product here are
data (Montgomery form with R = 2^256), so it divides by 2^256 exactly, with eight 29-bit steps and a
last one of 24 bits, and the result is in the data's own form.
"""
import pathlib

import vector_butterflies as vb
from vector_butterflies import L, B, emit, declare, load_limbs, store_limbs


def montgomery_reduce_256():
    """n0 .. n9: the normalised limbs of (c + m q) / 2^232 with m < 2^256 making c + m q a multiple
    of 2^256 (so n0 is a multiple of 2^24), from the columns c0 .. c16 (in locals)."""
    for i in range(L - 1):
        emit(f"{{ LongVector m = c{i}.mul(QINV).and(M);")
        for j in range(L):
            emit(f"  c{i + j} = c{i + j}.add(m.mul(Q{j}));")
        emit(f"  c{i + 1} = c{i + 1}.add(c{i}.lanewise(VectorOperators.LSHR, {B})); }}")
    # the last step takes 256 - 8 * 29 = 24 bits: c8 becomes a multiple of 2^24
    emit(f"{{ LongVector m = c{L - 1}.mul(QINV).and(M24);")
    for j in range(L):
        emit(f"  c{L - 1 + j} = c{L - 1 + j}.add(m.mul(Q{j}));" + (" }" if j == L - 1 else ""))
    emit(f"LongVector n0 = c{L - 1}.and(M);")
    for k in range(1, L):
        emit(f"c{L - 1 + k} = c{L - 1 + k}.add(c{L - 2 + k}.lanewise(VectorOperators.LSHR, {B}));")
        emit(f"LongVector n{k} = c{L - 1 + k}.and(M);")
    emit(f"LongVector n{L} = c{2 * L - 2}.lanewise(VectorOperators.LSHR, {B});")


def shift24(dst):
    """dst = (n0 .. n9) / 2^24 with normalised 29-bit limbs."""
    for k in range(L):
        tail = f"n{k + 1}.lanewise(VectorOperators.LSHL, 5)" + (".and(M)" if k < L - 1 else "")
        emit(f"LongVector {dst}{k} = n{k}.lanewise(VectorOperators.LSHR, 24).or({tail});")


MODULUS = "final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;"


def methods():
    emit("/** The limbs of the 8 elements at a[off .. off + 32) to x[xo + 8 k + lane], k < 9. */")
    emit("static void load(long[] a, int off, long[] x, int xo) {")
    vb.load_words("w", "off")
    vb.split("l", "w")
    store_limbs("l", "xo")
    emit("}")
    emit()
    emit("/** The inverse of {@link #load}: normalised limbs (values below 2^256) back to 8 elements. */")
    emit("static void store(long[] x, int xo, long[] a, int off) {")
    load_limbs("l", "xo")
    vb.join("w", "l")
    vb.store_words("w", "off")
    emit("}")
    emit()
    emit("/** The 17 column sums of the products of the limbs at ao and bo, to x[co + 8 k + lane]. */")
    emit("private static void product(long[] x, int ao, int bo, int co) {")
    load_limbs("a", "ao")
    vb.product_columns("a", "b")
    for k in range(2 * L - 1):
        emit(f"c{k}.intoArray(x, co + {8 * k});")
    emit("}")
    emit()
    emit("/**")
    emit(" * Montgomery reduction of the columns at co (a product of two values below q), first part: the")
    emit(" * 10 normalised limbs of (c + m q) 2^-232, a multiple of 2^24, back to x[co + 8 k + lane]. (In one")
    emit(" * method with {@link #finish}, C1 runs out of registers on it, and C2 never gets it.)")
    emit(" */")
    emit("private void reduce(long[] x, int co) {")
    emit(MODULUS)
    emit("final long QINV = qInv;")
    for k in range(2 * L - 1):
        emit(f"LongVector c{k} = LongVector.fromArray(S, x, co + {8 * k});")
    montgomery_reduce_256()
    for k in range(L + 1):
        emit(f"n{k}.intoArray(x, co + {8 * k});")
    emit("}")
    emit()
    emit("/** Second part of the reduction: the 10 limbs at co divided by 2^24, canonical, to ro. */")
    emit("private void finish(long[] x, int co, int ro) {")
    emit(MODULUS)
    for k in range(L + 1):
        emit(f"LongVector n{k} = LongVector.fromArray(S, x, co + {8 * k});")
    shift24("r")
    declare("p")
    vb.reduce_once("p", "r")
    store_limbs("p", "ro")
    emit("}")
    emit()
    emit("/** x at ro = a - b mod q, canonical, from canonical a (at ao) and b (at bo). */")
    emit("private void sub(long[] x, int ao, int bo, int ro) {")
    emit(MODULUS)
    load_limbs("a", "ao")
    load_limbs("b", "bo")
    declare("d")
    vb.sub_mod("d", "a", "b")
    store_limbs("d", "ro")
    emit("}")
    emit()
    emit("/** Negates (mod q) the canonical elements at o in the lanes where neg[lane]. */")
    emit("private void negWhere(long[] x, int o, boolean[] neg) {")
    emit(MODULUS)
    emit("VectorMask<Long> mask = VectorMask.fromArray(S, neg, 0);")
    for k in range(L):
        emit(f"LongVector z{k} = LongVector.zero(S);")
    load_limbs("a", "o")
    declare("d")
    vb.sub_mod("d", "z", "a")
    for k in range(L):
        emit(f"a{k}.blend(d{k}, mask).intoArray(x, o + {8 * k});")
    emit("}")
    emit()
    emit("/** The lanes (bit l for lane l) where the element at o is zero. */")
    emit("private static long zeroLanes(long[] x, int o) {")
    load_limbs("a", "o")
    emit("LongVector or = " + ".or(".join(f"a{k}" for k in range(L)) + ")" * (L - 1) + ";")
    emit("return or.compare(VectorOperators.EQ, 0).toLong();")
    emit("}")


def main():
    methods()
    body = []
    depth = 1
    for line in vb.out:
        s = line.strip()
        code = s.split("//")[0]
        lead = 1 if code.startswith("}") else 0
        depth -= lead
        body.append(("    " * depth + s) if s else "")
        depth += code.count("{") - code.count("}") + lead
    path = pathlib.Path(__file__).resolve().parents[1] / "main/java/dev/proofline/algebra/msm/VectorBatchAffine.java"
    text = path.read_text()
    start = "    // GENERATED BEGIN (algebra/src/codegen/vector_batch_affine.py)\n"
    end = "    // GENERATED END\n"
    i, j = text.index(start), text.index(end)
    path.write_text(text[:i + len(start)] + "\n".join(body) + "\n" + text[j:])


if __name__ == "__main__":
    main()
