#!/usr/bin/env python3
"""Writes VectorBatchAffine4.java and VectorBatchAffine6.java: the unrolled vector methods of the
8-lane batch-affine additions for 4-word (BN254) and 6-word (BLS12-381) base fields (and, through
VectorBatchAffine2, for their quadratic extensions).

    python3 algebra/src/codegen/vector_batch_affine.py

The limb arithmetic is the NTT's (vector_butterflies.py): 8 field elements at a time, one per 64-bit
lane, limbs of 29 bits (9 for 4 words, 14 for 6). The Montgomery reduction differs: both operands of
every product here are data (Montgomery form with R = 2^(64 words)), so it divides by exactly that,
with 29-bit steps and a last, shorter one, and the result is in the data's own form.
"""
import pathlib

import vector_butterflies as vb
from vector_butterflies import B, U32, emit, in_parts, product_rows

M_ALL = "M"
# Every limb product multiplies two values below 2^32 (limbs of 29 bits, 30 or 31 in sums and doubled
# limbs); both operands are ANDed (U32) with VectorBatchAffine.LO = LimbProducts.MASK (0xFFFFFFFF on Intel
# cores, where C2 then uses vpmuludq instead of vpmullq; all ones elsewhere, an AND C2 drops), which made
# an addition quicker on an Intel Xeon with AVX-512 (docs/decisions/0005-32-bit-limb-products-on-intel.md).


def limbs_of(words):
    return (64 * words + B - 1) // B + (1 if (64 * words) % B == 0 else 0)


def load_words_gather(words):
    """w0 .. w{words-1}: word k of the 8 elements at a[off ..], gathered with a stride of `words`."""
    for k in range(words):
        emit(f"LongVector w{k} = LongVector.fromArray(S, a, off + {k}, STRIDE, 0);")


def store_words_scatter(words):
    for k in range(words):
        emit(f"w{k}.intoArray(a, off + {k}, STRIDE, 0);")


def split(words, L):
    for k in range(L):
        bit = B * k
        word, sh = bit >> 6, bit & 63
        v = f"w{word}.lanewise(LSHR, {sh})" if sh else f"w{word}"
        if sh > 64 - B and word + 1 < words:
            v = f"{v}.or(w{word + 1}.lanewise(LSHL, {64 - sh}).and(M))"
            emit(f"LongVector l{k} = {v};")
        elif k == L - 1:
            emit(f"LongVector l{k} = {v};")
        else:
            emit(f"LongVector l{k} = {v}.and(M);")


def join(words, L):
    for i in range(words):
        terms = []
        for k in range(L):
            lo, hi = B * k, B * k + B
            if hi <= 64 * i or lo >= 64 * i + 64:
                continue
            d = lo - 64 * i
            if d > 0:
                terms.append(f"l{k}.lanewise(LSHL, {d})")
            elif d < 0:
                terms.append(f"l{k}.lanewise(LSHR, {-d})")
            else:
                terms.append(f"l{k}")
        e = terms[0]
        for t in terms[1:]:
            e = f"{e}.or({t})"
        emit(f"LongVector w{i} = {e};")


def square_rows(L, j0, j1, first, loaded=()):
    """Columns += rows j0 .. j1-1 of the square: row j is 2 a_i a_j for i < j, and a_j^2."""
    defined = set() if first else set(loaded)
    for j in range(j0, j1):
        if j > 0:
            emit(f"LongVector d{j} = a{j}.lanewise(LSHL, 1){U32};")
        for i in range(j + 1):
            k = i + j
            term = f"a{j}.mul(a{j})" if i == j else f"a{i}.mul(d{j})"
            if k in defined:
                emit(f"c{k} = c{k}.add({term});")
            else:
                emit(f"LongVector c{k} = {term};")
                defined.add(k)
    if first:
        for k in range(2 * L - 1):
            if k not in defined:
                emit(f"LongVector c{k} = LongVector.zero(S);")


def shifted_limbs(L, last_bits):
    """Loads the L + 1 limbs n at co (from reduce); returns the expressions of the L limbs of n shifted
    down by last_bits bits (the value divided by the rest of R)."""
    for k in range(L + 1):
        emit(f"LongVector n{k} = LongVector.fromArray(S, x, co + {8 * k});")
    out = []
    for k in range(L):
        tail = f"n{k + 1}.lanewise(LSHL, {B - last_bits})" + (".and(M)" if k < L - 1 else "")
        out.append(f"n{k}.lanewise(LSHR, {last_bits}).or({tail})")
    return out


def reduce_steps(L, s0, s1, last_bits):
    """Montgomery steps s0 .. s1-1 on the columns (in locals); step L - 1 takes last_bits bits."""
    for i in range(s0, s1):
        # m = c_i qInv mod 2^bits, from the low 32 bits of c_i; kept below 2^bits by shifts rather
        # than an AND with the limb mask, which C2 would fold into the AND with LO
        bits = B if i < L - 1 else last_bits
        emit(f"{{ LongVector m = c{i}{U32}.mul(QIV).lanewise(LSHL, {64 - bits}).lanewise(LSHR, {64 - bits}){U32};")
        for j in range(L):
            emit(f"  c{i + j} = c{i + j}.add(m.mul(QV{j}));")
        if i < L - 1:
            emit(f"  c{i + 1} = c{i + 1}.add(c{i}.lanewise(LSHR, {B})); }}")
        else:
            emit("}")


def fused_product(L, last_bits, split_at):
    """mulReduce: the product's rows interleaved with the Montgomery steps (row i of a b, then step i,
    which needs column i only, complete once rows 0 .. i are in), in parts that start at the rows in
    split_at: a part keeps its columns in locals and hands the live ones to the next through x. The
    L + 1 limbs at co as reduce leaves them."""
    cuts = [0] + list(split_at) + [L]
    parts = list(zip(cuts, cuts[1:]))
    for h, (i0, i1) in enumerate(parts):
        if h == 0:
            emit("@Override")
            emit("void mulReduce(long[] x, int ao, int bo, int co) {")
        else:
            emit(f"/** Rows {i0} to {i1 - 1} of the product and Montgomery steps {i0} to {i1 - 1}"
                 + (", then the normalisation. */" if i1 == L else ". */"))
            emit(f"private void mulReduce{h}(long[] x, int ao, int bo, int co) {{")
        reduction_constants(L)
        for k in range(L):
            emit(f"LongVector a{k} = LongVector.fromArray(S, x, ao + {8 * k}){U32};")
        # the columns earlier parts left: i0 .. i0 + L - 2 (column i0 holds the carry of step i0 - 1)
        defined = set()
        if h > 0:
            for k in range(i0, i0 + L - 1):
                emit(f"LongVector c{k} = LongVector.fromArray(S, x, co + {8 * k});")
                defined.add(k)
        for i in range(i0, i1):
            product_rows(L, i, i + 1, False, defined)
            defined.update(range(i, i + L))
            reduce_steps(L, i, i + 1, last_bits)
        if i1 < L:
            for k in range(i1, i1 + L - 1):
                emit(f"c{k}.intoArray(x, co + {8 * k});")
            emit(f"mulReduce{h + 1}(x, ao, bo, co);")
        else:
            store_normalised(L)
        emit("}")
        emit()


def modulus(L):
    emit("final long " + ", ".join(f"Q{k} = q[{k}]" for k in range(L)) + ";")


def reduction_constants(L):
    """The modulus, qInv and their limbs as vectors (masked with LO), for reduce_steps."""
    modulus(L)
    emit("final long QINV = qInv;")
    emit(f"final LongVector QIV = LongVector.broadcast(S, QINV){U32};")
    for j in range(L):
        emit(f"final LongVector QV{j} = LongVector.broadcast(S, Q{j}){U32};")


def store_normalised(L):
    """The columns c{L-1} .. c{2L-2} after the last step, their carries propagated, as L + 1 limbs at co."""
    emit(f"LongVector n0 = c{L - 1}.and(M);")
    for k in range(1, L):
        emit(f"c{L - 1 + k} = c{L - 1 + k}.add(c{L - 2 + k}.lanewise(LSHR, {B}));")
        emit(f"LongVector n{k} = c{L - 1 + k}.and(M);")
    emit(f"LongVector n{L} = c{2 * L - 2}.lanewise(LSHR, {B});")
    for k in range(L + 1):
        emit(f"n{k}.intoArray(x, co + {8 * k});")


def gen(cls, words, L, transpose, square_split_at, reduce_chunk, mul_split_at):
    vb.out.clear()
    vb.L = L
    last_bits = 64 * words - B * (L - 1)
    assert 0 < last_bits < B
    emit("@Override")
    emit(f"void load(long[] a, int off, long[] x, int xo) {{")
    if transpose:
        vb.load_words("w", "off")
        vb.split("l", "w")
    else:
        load_words_gather(words)
        split(words, L)
    vb.store_limbs("l", "xo")
    emit("}")
    emit()
    emit("@Override")
    emit("void store(long[] x, int xo, long[] a, int off) {")
    vb.load_limbs("l", "xo")
    if transpose:
        vb.join("w", "l")
        vb.store_words("w", "off")
    else:
        join(words, L)
        store_words_scatter(words)
    emit("}")
    emit()
    # the square: L (L + 1) / 2 limb products instead of L^2, in parts of about as many products
    # (row j has j + 1 of them)
    in_parts("square", "squareRows", "long[] x, int ao, int co", "x, ao, co", L, square_split_at,
             lambda j1: j1, lambda j0, j1: range(j0, 2 * j1 - 1), square_rows)
    # the reduction: steps (in one method, or in chunks that each load only the columns they
    # touch: C1 runs out of registers otherwise), then normalisation to x[co ..] (L + 1 limbs)
    if reduce_chunk is None:
        steps = [(0, L)]
    else:
        steps = [(s, min(L, s + reduce_chunk)) for s in range(0, L, reduce_chunk)]
    for h, (s0, s1) in enumerate(steps):
        last = s1 == L
        top = 2 * L - 2 if last else s1 + L - 2
        if h == 0:
            emit("@Override")
            emit("void reduce(long[] x, int co) {")
        else:
            emit(f"/** Montgomery steps {s0} to {s1 - 1}" + (" and the normalisation. */" if last else ". */"))
            emit(f"private void reduce{h}(long[] x, int co) {{")
        reduction_constants(L)
        for k in range(s0, top + 1):
            emit(f"LongVector c{k} = LongVector.fromArray(S, x, co + {8 * k});")
        reduce_steps(L, s0, s1, last_bits)
        if not last:
            for k in range(s1, top + 1):
                emit(f"c{k}.intoArray(x, co + {8 * k});")
            emit(f"reduce{h + 1}(x, co);")
        else:
            store_normalised(L)
        emit("}")
        emit()
    # the product interleaved with its reduction, in parts: row i, then step i (split_at: the rows
    # starting a part), a little quicker than the product's columns stored and reloaded by the reduction
    # (docs/decisions/0013-circom-matrix-intel-2-6.md, "What changed"); parts of 3 rows: C1 runs out of
    # virtual registers on larger ones, and the method then never reaches C2
    fused_product(L, last_bits, mul_split_at)
    emit("@Override")
    emit("void finish(long[] x, int co, int ro) {")
    modulus(L)
    for k, e in enumerate(shifted_limbs(L, last_bits)):
        emit(f"LongVector r{k} = {e};")
    vb.declare("p")
    vb.reduce_once("p", "r")
    vb.store_limbs("p", "ro")
    emit("}")
    emit()
    emit("@Override")
    emit("void finishLazy(long[] x, int co, int ro) {")
    for k, e in enumerate(shifted_limbs(L, last_bits)):
        emit(f"{e}.intoArray(x, ro + {8 * k});")
    emit("}")
    emit()
    emit("@Override")
    emit("void sub(long[] x, int ao, int bo, int ro) {")
    modulus(L)
    vb.load_limbs("a", "ao")
    vb.load_limbs("b", "bo")
    vb.declare("d")
    vb.sub_mod("d", "a", "b")
    vb.store_limbs("d", "ro")
    emit("}")
    emit()
    emit("@Override")
    emit("void add(long[] x, int ao, int bo, int ro) {")
    modulus(L)
    vb.load_limbs("a", "ao")
    vb.load_limbs("b", "bo")
    vb.declare("d")
    vb.add_mod("d", "a", "b")
    vb.store_limbs("d", "ro")
    emit("}")
    emit()
    emit("@Override")
    emit("void negWhere(long[] x, int o, boolean[] neg) {")
    modulus(L)
    emit("VectorMask<Long> mask = VectorMask.fromArray(S, neg, 0);")
    for k in range(L):
        emit(f"LongVector z{k} = LongVector.zero(S);")
    vb.load_limbs("a", "o")
    vb.declare("d")
    vb.sub_mod("d", "z", "a")
    for k in range(L):
        emit(f"a{k}.blend(d{k}, mask).intoArray(x, o + {8 * k});")
    emit("}")
    emit()
    emit("@Override")
    emit("long zeroLanes(long[] x, int o) {")
    vb.load_limbs("a", "o")
    emit("LongVector or = a0;")
    for k in range(1, L):
        emit(f"or = or.or(a{k});")
    emit("return or.compare(VectorOperators.EQ, 0).toLong();")
    emit("}")

    body = []
    depth = 1
    for line in vb.out:
        s = line.strip()
        code = s.split("//")[0]
        lead = 1 if code.startswith("}") else 0
        depth -= lead
        body.append(("    " * depth + s) if s else "")
        depth += code.count("{") - code.count("}") + lead
    consts = ""
    if transpose:
        consts = """
    /** Two-vector selections for the 4 x 8 transposition between element order and word order. */
    private static final LongVector PAIRS_LO = LongVector.fromArray(S, new long[] {0, 4, 8, 12, 1, 5, 9, 13}, 0);
    private static final LongVector PAIRS_HI = LongVector.fromArray(S, new long[] {2, 6, 10, 14, 3, 7, 11, 15}, 0);
    private static final LongVector HALVES_LO = LongVector.fromArray(S, new long[] {0, 1, 2, 3, 8, 9, 10, 11}, 0);
    private static final LongVector HALVES_HI = LongVector.fromArray(S, new long[] {4, 5, 6, 7, 12, 13, 14, 15}, 0);
"""
    else:
        consts = f"""
    /** Word k of the 8 elements at a[off ..] is at off + k + STRIDE[lane]. */
    private static final int[] STRIDE = {{{", ".join(str(words * l) for l in range(8))}}};
"""
    text = f"""package dev.proofline.algebra.msm;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;

import dev.proofline.algebra.field.PrimeField;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

// Written by algebra/src/codegen/vector_batch_affine.py: edit that, not this.
/** The limb arithmetic of {{@link VectorBatchAffine}} for {words}-word fields: {L} limbs of 29 bits. */
final class {cls} extends VectorBatchAffine {{
{consts}
    {cls}(PrimeField f, boolean eager) {{
        super(f, eager, {L});
    }}

""" + "\n".join(body) + "\n}\n"
    path = pathlib.Path(__file__).resolve().parents[1] / f"main/java/dev/proofline/algebra/msm/{cls}.java"
    path.write_text(text)


def main():
    gen("VectorBatchAffine4", 4, 9, True, [6], None, [3, 6])
    gen("VectorBatchAffine6", 6, 14, False, [7, 10, 12], 3, [3, 6, 9, 12])


if __name__ == "__main__":
    main()
