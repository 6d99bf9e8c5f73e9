#!/usr/bin/env python3
"""Writes the unrolled vector methods of VectorButterflies.java (between the GENERATED markers).

    python3 algebra/src/codegen/vector_butterflies.py

Eight butterflies at a time, one per 64-bit lane of a 512-bit vector; every element as 9 limbs of
29 bits while it is worked on (R = 2^261 for the multiplication), 4 words of 64 bits in memory.
"""
import pathlib
import re

L = 9          # limbs
B = 29         # bits per limb
U32 = ".and(LO)"   # the limb products' operand mask (LimbProducts: 0xFFFFFFFF on Intel cores, else all ones)

out = []


def emit(s=""):
    out.append(s)


def load_words(dst, off):
    """Four vectors dst0..dst3: word k of the 8 elements at a[off .. off + 32)."""
    emit(f"LongVector {dst}v0 = LongVector.fromArray(S, a, {off});")
    emit(f"LongVector {dst}v1 = LongVector.fromArray(S, a, {off} + 8);")
    emit(f"LongVector {dst}v2 = LongVector.fromArray(S, a, {off} + 16);")
    emit(f"LongVector {dst}v3 = LongVector.fromArray(S, a, {off} + 24);")
    emit(f"LongVector {dst}A = PAIRS_LO.selectFrom({dst}v0, {dst}v1);")
    emit(f"LongVector {dst}B = PAIRS_HI.selectFrom({dst}v0, {dst}v1);")
    emit(f"LongVector {dst}C = PAIRS_LO.selectFrom({dst}v2, {dst}v3);")
    emit(f"LongVector {dst}D = PAIRS_HI.selectFrom({dst}v2, {dst}v3);")
    emit(f"LongVector {dst}0 = HALVES_LO.selectFrom({dst}A, {dst}C);")
    emit(f"LongVector {dst}1 = HALVES_HI.selectFrom({dst}A, {dst}C);")
    emit(f"LongVector {dst}2 = HALVES_LO.selectFrom({dst}B, {dst}D);")
    emit(f"LongVector {dst}3 = HALVES_HI.selectFrom({dst}B, {dst}D);")


def store_words(src, off):
    """The inverse of load_words: word vectors src0..src3 back to a[off .. off + 32)."""
    emit(f"LongVector {src}A = HALVES_LO.selectFrom({src}0, {src}1);")
    emit(f"LongVector {src}C = HALVES_HI.selectFrom({src}0, {src}1);")
    emit(f"LongVector {src}B = HALVES_LO.selectFrom({src}2, {src}3);")
    emit(f"LongVector {src}D = HALVES_HI.selectFrom({src}2, {src}3);")
    emit(f"PAIRS_LO.selectFrom({src}A, {src}B).intoArray(a, {off});")
    emit(f"PAIRS_HI.selectFrom({src}A, {src}B).intoArray(a, {off} + 8);")
    emit(f"PAIRS_LO.selectFrom({src}C, {src}D).intoArray(a, {off} + 16);")
    emit(f"PAIRS_HI.selectFrom({src}C, {src}D).intoArray(a, {off} + 24);")


def split(dst, w):
    """29-bit limbs dst0..dst8 of the 256-bit values with words w0..w3."""
    sh = lambda v, op, n: f"{v}.lanewise({op}, {n})"
    emit(f"LongVector {dst}0 = {w}0.and(M);")
    emit(f"LongVector {dst}1 = {sh(w + '0', 'LSHR', 29)}.and(M);")
    emit(f"LongVector {dst}2 = {sh(w + '0', 'LSHR', 58)}.or({sh(w + '1', 'LSHL', 6)}.and(M));")
    emit(f"LongVector {dst}3 = {sh(w + '1', 'LSHR', 23)}.and(M);")
    emit(f"LongVector {dst}4 = {sh(w + '1', 'LSHR', 52)}.or({sh(w + '2', 'LSHL', 12)}.and(M));")
    emit(f"LongVector {dst}5 = {sh(w + '2', 'LSHR', 17)}.and(M);")
    emit(f"LongVector {dst}6 = {sh(w + '2', 'LSHR', 46)}.or({sh(w + '3', 'LSHL', 18)}.and(M));")
    emit(f"LongVector {dst}7 = {sh(w + '3', 'LSHR', 11)}.and(M);")
    emit(f"LongVector {dst}8 = {sh(w + '3', 'LSHR', 40)};")


def join(dst, l):
    """Words dst0..dst3 of the values with normalised limbs l0..l8 (below 2^256)."""
    sh = lambda v, op, n: f"{v}.lanewise({op}, {n})"
    emit(f"LongVector {dst}0 = {l}0.or({sh(l + '1', 'LSHL', 29)}).or({sh(l + '2', 'LSHL', 58)});")
    emit(f"LongVector {dst}1 = {sh(l + '2', 'LSHR', 6)}.or({sh(l + '3', 'LSHL', 23)}).or({sh(l + '4', 'LSHL', 52)});")
    emit(f"LongVector {dst}2 = {sh(l + '4', 'LSHR', 12)}.or({sh(l + '5', 'LSHL', 17)}).or({sh(l + '6', 'LSHL', 46)});")
    emit(f"LongVector {dst}3 = {sh(l + '6', 'LSHR', 18)}.or({sh(l + '7', 'LSHL', 11)}).or({sh(l + '8', 'LSHL', 40)});")


def twiddle(dst, reversed_):
    """Limbs dst0..dst8 of the 8 twiddles (times 2^261, canonical) from the stage's int table."""
    for k in range(L):
        idx = f"t + {k} * stride" if k else "t"
        src = f"IntVector.fromArray(SI, tw, {idx})"
        if reversed_:
            src = f"REVERSE.selectFrom({src})"
        emit(f"LongVector {dst}{k} = (LongVector) {src}.convertShape(VectorOperators.I2L, S, 0);")


# productTw in two methods, rows 0 .. TW_SPLIT-1 of the twiddle and the rest: as one, with its operands
# masked, C1 ran out of virtual registers on it, C2 never compiled it and a transform took many times as
# long (in two, 64 x 64-bit products also measured faster:
# docs/decisions/0005-32-bit-limb-products-on-intel.md)
TW_SPLIT = 5


def twiddle_limb(j):
    """Limb j of the 8 twiddles at t + lane of a stage's table (row j at t + j * stride), masked with LO."""
    idx = f"t + {j} * stride" if j else "t"
    return f"((LongVector) IntVector.fromArray(SI, tw, {idx}).convertShape(VectorOperators.I2L, S, 0)).and(LO)"


def limbs_at_bo(j):
    """Limb j of the 8 elements at bo, masked with LO."""
    return f"LongVector.fromArray(S, x, bo + {8 * j}){U32}"


def product_rows(L, j0, j1, first, loaded=(), load_b=limbs_at_bo):
    """Columns c0 .. c{2L-2} += rows j0 .. j1-1 of the schoolbook product (a in locals, limb j of b from
    load_b(j)); unless first, the columns the rows touch are in locals."""
    defined = set() if first else set(loaded)
    for j in range(j0, j1):
        emit(f"LongVector b{j} = {load_b(j)};")
        for i in range(L):
            k = i + j
            term = f"a{i}.mul(b{j})"
            if k in defined:
                emit(f"c{k} = c{k}.add({term});")
            else:
                emit(f"LongVector c{k} = {term};")
                defined.add(k)
    if first:
        for k in range(2 * L - 1):
            if k not in defined:
                emit(f"LongVector c{k} = LongVector.zero(S);")


def in_parts(name, rows_name, params, args, L, split_at, limbs_used, touched_by, rows, head=("@Override", "void")):
    """Method `name` adding rows of limb products into the 2L - 1 columns at co, in parts that start
    at the rows in split_at: the first part in `name` itself (all columns, stored), each later one in
    a method of its own that loads and stores only the columns its rows touch. A part of rows j0 ..
    j1-1 reads limbs a0 .. a{limbs_used(j1) - 1}, masked with LO. `head`: the annotation lines of `name`,
    then its modifiers and type."""
    cuts = [0] + list(split_at or []) + [L]
    parts = list(zip(cuts, cuts[1:]))
    for line in head[:-1]:
        emit(line)
    emit(f"{head[-1]} {name}({params}) {{")
    for h, (j0, j1) in enumerate(parts):
        if h > 0:
            emit(f"{rows_name}{h}({args});")
            continue
        for k in range(limbs_used(j1)):
            emit(f"LongVector a{k} = LongVector.fromArray(S, x, ao + {8 * k}){U32};")
        rows(L, j0, j1, True)
        for k in range(2 * L - 1):
            emit(f"c{k}.intoArray(x, co + {8 * k});")
    emit("}")
    for h, (j0, j1) in enumerate(parts):
        if h == 0:
            continue
        emit()
        emit(f"/** Adds rows {j0} to {j1 - 1} of the {name} to the columns at co. */")
        emit(f"private static void {rows_name}{h}({params}) {{")
        for k in range(limbs_used(j1)):
            emit(f"LongVector a{k} = LongVector.fromArray(S, x, ao + {8 * k}){U32};")
        touched = touched_by(j0, j1)
        for k in touched:
            emit(f"LongVector c{k} = LongVector.fromArray(S, x, co + {8 * k});")
        rows(L, j0, j1, False, touched)
        for k in touched:
            emit(f"c{k}.intoArray(x, co + {8 * k});")
        emit("}")
    emit()


def montgomery_reduce(dst):
    """dst = c 2^-261 mod q below 2q with normalised limbs, from the columns c0 .. c16 (in locals)."""
    # m = c_i qInv mod 2^29 from the low 32 bits of c_i, kept below 2^29 by shifts (an AND with M would
    # fold into the AND with LO), and m q_j as 32 x 32-bit products where LO = LimbProducts.MASK is
    # 0xFFFFFFFF (on Intel cores: vpmuludq instead of vpmullq). With the twiddle products (productTw) a
    # forward transform took less time on a Xeon than with 64 x 64-bit products
    # (docs/decisions/0005-32-bit-limb-products-on-intel.md).
    for i in range(L):
        emit(f"{{ LongVector m = c{i}.and(LO).mul(QIV).lanewise(LSHL, {64 - B}).lanewise(LSHR, {64 - B}).and(LO);")
        for j in range(L):
            emit(f"  c{i + j} = c{i + j}.add(m.mul(QV{j}));")
        emit(f"  c{i + 1} = c{i + 1}.add(c{i}.lanewise(VectorOperators.LSHR, {B})); }}")
    # c9 .. c16 and the carry out of c16 hold the result with unnormalised limbs
    emit(f"LongVector {dst}0 = c{L}.and(M);")
    for k in range(1, L - 1):
        emit(f"c{L + k} = c{L + k}.add(c{L + k - 1}.lanewise(VectorOperators.LSHR, {B}));")
        emit(f"LongVector {dst}{k} = c{L + k}.and(M);")
    emit(f"LongVector {dst}{L - 1} = c{2 * L - 2}.lanewise(VectorOperators.LSHR, {B});")


def reduce_once(dst, r):
    """dst = r - q if r >= q else r, for r < 2q with normalised limbs."""
    emit("{")
    emit(f"  LongVector td0 = {r}0.sub(Q0);")
    for k in range(1, L):
        emit(f"  LongVector td{k} = {r}{k}.sub(Q{k}).add(td{k - 1}.lanewise(VectorOperators.ASHR, {B}));")
    emit(f"  VectorMask<Long> under = td{L - 1}.compare(VectorOperators.LT, 0);")
    for k in range(L):
        emit(f"  {dst}{k} = td{k}.and(M).blend({r}{k}, under);")
    emit("}")


def add_mod(dst, x, y):
    """dst = x + y mod q, canonical, for canonical x, y."""
    emit("{")
    for k in range(L):
        emit(f"  LongVector ts{k} = {x}{k}.add({y}{k});")
    # the sum normalised, and the sum minus q normalised (signed carries)
    emit("  LongVector te0 = ts0;")
    emit("  LongVector td0 = ts0.sub(Q0);")
    for k in range(1, L):
        emit(f"  LongVector te{k} = ts{k}.add(te{k - 1}.lanewise(VectorOperators.LSHR, {B}));")
        emit(f"  LongVector td{k} = ts{k}.sub(Q{k}).add(td{k - 1}.lanewise(VectorOperators.ASHR, {B}));")
    emit(f"  VectorMask<Long> under = td{L - 1}.compare(VectorOperators.LT, 0);")
    for k in range(L):
        emit(f"  {dst}{k} = td{k}.and(M).blend(te{k}.and(M), under);")
    emit("}")


def sub_mod(dst, x, y):
    """dst = x - y mod q, canonical, for canonical x, y."""
    emit("{")
    for k in range(L):
        emit(f"  LongVector ts{k} = {x}{k}.sub({y}{k});")
    # the difference normalised (signed carries), and the difference plus q normalised
    emit("  LongVector te0 = ts0;")
    emit("  LongVector td0 = ts0.add(Q0);")
    for k in range(1, L):
        emit(f"  LongVector te{k} = ts{k}.add(te{k - 1}.lanewise(VectorOperators.ASHR, {B}));")
        emit(f"  LongVector td{k} = ts{k}.add(Q{k}).add(td{k - 1}.lanewise(VectorOperators.ASHR, {B}));")
    emit(f"  VectorMask<Long> under = te{L - 1}.compare(VectorOperators.LT, 0);")
    for k in range(L):
        emit(f"  {dst}{k} = te{k}.and(M).blend(td{k}.and(M), under);")
    emit("}")


def declare(name):
    emit("LongVector " + ", ".join(f"{name}{k}" for k in range(L)) + ";")


def load_limbs(dst, off):
    for k in range(L):
        emit(f"LongVector {dst}{k} = LongVector.fromArray(S, x, {off} + {8 * k});")


def store_limbs(src, off):
    for k in range(L):
        emit(f"{src}{k}.intoArray(x, {off} + {8 * k});")


MODULUS = "final long Q0 = q0, Q1 = q1, Q2 = q2, Q3 = q3, Q4 = q4, Q5 = q5, Q6 = q6, Q7 = q7, Q8 = q8;"


def methods():
    emit("/** The limbs of the 8 elements at a[off .. off + 32) to x[xo + 8 k + lane], k < 9. */")
    emit("private static void load(long[] a, int off, long[] x, int xo) {")
    load_words("w", "off")
    split("l", "w")
    store_limbs("l", "xo")
    emit("}")
    emit()
    emit("/** The inverse of {@link #load}: normalised limbs (values below 2^256) back to 8 elements. */")
    emit("private static void store(long[] x, int xo, long[] a, int off) {")
    load_limbs("l", "xo")
    join("w", "l")
    store_words("w", "off")
    emit("}")
    emit()
    emit("/**")
    emit(" * The limbs of 8 twiddles to x[xo + 8 k + lane]: entry t + 7 - lane of each limb row (row k at")
    emit(" * t + k * stride) of a stage's table.")
    emit(" */")
    emit("private static void twiddlesReversed(int[] tw, int t, int stride, long[] x, int xo) {")
    twiddle("y", True)
    store_limbs("y", "xo")
    emit("}")
    emit()
    emit("/**")
    emit(" * Rearranges 16 limb vectors: limb k of the two 8-lane operands at p and q (16 lanes, p first)")
    emit(" * to r and s, lane l of r taking source lane idx[l], of s source lane idx[8 + l]. r, s may")
    emit(" * be p, q.")
    emit(" */")
    emit("private static void permute(long[] x, int p, int q, int r, int s, long[] idx) {")
    emit("LongVector i0 = LongVector.fromArray(S, idx, 0);")
    emit("LongVector i1 = LongVector.fromArray(S, idx, 8);")
    for k in range(L):
        emit(f"LongVector p{k} = LongVector.fromArray(S, x, p + {8 * k});")
        emit(f"LongVector q{k} = LongVector.fromArray(S, x, q + {8 * k});")
        emit(f"i0.selectFrom(p{k}, q{k}).intoArray(x, r + {8 * k});")
        emit(f"i1.selectFrom(p{k}, q{k}).intoArray(x, s + {8 * k});")
    emit("}")
    emit()
    emit("/** The 17 column sums of the products of the limbs at ao and bo, to x[co + 8 k + lane]. */")
    emit("private static void product(long[] x, int ao, int bo, int co) {")
    load_limbs("a", "ao")
    product_rows(L, 0, L, True, load_b=lambda j: f"LongVector.fromArray(S, x, bo + {8 * j})")
    for k in range(2 * L - 1):
        emit(f"c{k}.intoArray(x, co + {8 * k});")
    emit("}")
    emit()
    emit("/**")
    emit(" * As {@link #product}, the second operand the 8 twiddles at t + lane of each limb row of a stage's")
    emit(" * table (row k at t + k * stride), read there.")
    emit(" */")
    in_parts("productTw", "productTwRows", "long[] x, int ao, int[] tw, int t, int stride, int co",
             "x, ao, tw, t, stride, co", L, [TW_SPLIT], lambda j1: L, lambda j0, j1: range(j0, j1 + L - 1),
             lambda l, j0, j1, first, loaded=(): product_rows(l, j0, j1, first, loaded, load_b=twiddle_limb),
             head=("private static void",))
    emit("/**")
    emit(" * Montgomery reduction of the columns at co (a product of two values below q): the limbs of")
    emit(" * c 2^-261 mod q, canonical, to x[ro + 8 k + lane].")
    emit(" */")
    emit("private void reduce(long[] x, int co, int ro) {")
    emit(MODULUS)
    emit("final long QINV = qInv;")
    emit("final LongVector QIV = LongVector.broadcast(S, QINV).and(LO);")
    for j in range(L):
        emit(f"final LongVector QV{j} = LongVector.broadcast(S, Q{j}).and(LO);")
    for k in range(2 * L - 1):
        emit(f"LongVector c{k} = LongVector.fromArray(S, x, co + {8 * k});")
    montgomery_reduce("r")
    declare("p")
    reduce_once("p", "r")
    store_limbs("p", "ro")
    emit("}")
    emit()
    emit("/** s = a + b and d = a - b mod q, canonical, from canonical a (at ao) and b (at bo). */")
    emit("private void addSub(long[] x, int ao, int bo, int so, int dO) {")
    emit(MODULUS)
    load_limbs("a", "ao")
    load_limbs("b", "bo")
    declare("s")
    add_mod("s", "a", "b")
    store_limbs("s", "so")
    declare("d")
    sub_mod("d", "a", "b")
    store_limbs("d", "dO")
    emit("}")


def main():
    methods()
    body = []
    depth = 1
    for line in out:
        s = line.strip()
        code = s.split("//")[0]
        lead = 1 if code.startswith("}") else 0
        depth -= lead
        body.append(("    " * depth + s) if s else "")
        depth += code.count("{") - code.count("}") + lead
    path = pathlib.Path(__file__).resolve().parents[1] / "main/java/dev/proofline/algebra/ntt/VectorButterflies.java"
    text = path.read_text()
    start = "    // GENERATED BEGIN (algebra/src/codegen/vector_butterflies.py)\n"
    end = "    // GENERATED END\n"
    i, j = text.index(start), text.index(end)
    path.write_text(text[:i + len(start)] + "\n".join(body) + "\n" + text[j:])


if __name__ == "__main__":
    main()
