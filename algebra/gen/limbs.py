"""The unrolled multi-limb steps that Proofline's generated Java arithmetic is made of, one emitter each.

Every generator of unrolled field code (gen_fields.py: the field classes; gen_montgomery4.py: the
NTT's butterflies and the PCE's row sums) writes its loops with these, so that each step is written
once. An emitter returns Java lines without indentation. Names are passed in: a limb i of operand x is
x(i), a function from the limb index to its Java expression, so the same step reads locals, array
elements or constants.

Conventions of the emitted code: lt(a, b) is the unsigned a < b as 0 or 1; the word-level carry of
x + y + c is ((x & y) | ((x | y) & ~s)) >>> 63 and the borrow of x - y - b is
((~x & y) | (~(x ^ y) & d)) >>> 63, both branch-free.
"""


def names(prefix):
    """Limb i of a value held in locals prefix0, prefix1, ..."""
    return lambda i: "%s%d" % (prefix, i)


def cios_rounds(x, y, t, q, qinv, n, comment, shortcut):
    """t = x * y * 2^(-64 n) mod q, below 2q, by CIOS Montgomery multiplication without the extra
    carry word (valid when q's top limb is below 2^63 - 1); t(i) must start at 0 and the locals
    A, C, m, lo, hi, s exist. With shortcut, the low word of t0 + m q0 (zero by the choice of m) is
    not computed: only its carry, t0 != 0."""
    L = []
    for i in range(n):
        L.append("// round %d: %s" % (i, comment % i))
        L.append("lo = %s * %s; hi = Math.unsignedMultiplyHigh(%s, %s);" % (x(0), y(i), x(0), y(i)))
        L.append("%s += lo; hi += lt(%s, lo); A = hi;" % (t(0), t(0)))
        L.append("m = %s * %s;" % (t(0), qinv))
        if shortcut:
            L.append("C = Math.unsignedMultiplyHigh(m, %s) + (%s != 0 ? 1L : 0L);" % (q(0), t(0)))
        else:
            L.append("lo = m * %s; hi = Math.unsignedMultiplyHigh(m, %s);" % (q(0), q(0)))
            L.append("s = %s + lo; C = hi + lt(s, lo);" % t(0))
        for j in range(1, n):
            L.append("lo = %s * %s; hi = Math.unsignedMultiplyHigh(%s, %s);" % (x(j), y(i), x(j), y(i)))
            L.append("s = %s + lo; hi += lt(s, lo); %s = s + A; hi += lt(%s, s); A = hi;" % (t(j), t(j), t(j)))
            L.append("lo = m * %s; hi = Math.unsignedMultiplyHigh(m, %s);" % (q(j), q(j)))
            L.append("s = %s + lo; hi += lt(s, lo); %s = s + C; hi += lt(%s, s); C = hi;" % (t(j), t(j - 1), t(j - 1)))
        L.append("%s = C + A;" % t(n - 1))
    return L


def minus_q(t, q, diff, n):
    """diff(i) = t - q, limb by limb, leaving the final borrow in bw (declared: d, bw)."""
    L = ["d = %s - %s; bw = lt(%s, %s); final long %s = d;" % (t(0), q(0), t(0), q(0), diff(0))]
    for i in range(1, n):
        L.append("d = %s - %s - bw; bw = ((~%s & %s) | (~(%s ^ %s) & d)) >>> 63; final long %s = d;"
                 % (t(i), q(i), t(i), q(i), t(i), q(i), diff(i)))
    return L


def select(keep, a, b, out, n):
    """out(i) = a(i) where keep is all ones, else b(i): each line is out(i) with the value appended."""
    return ["%s(%s & %s) | (%s & ~%s);" % (out(i), a(i), keep, b(i), keep) for i in range(n)]


def add_chain(x, y, out, n, carry_out=True):
    """s = x + y limb by limb through locals x, y, s, c; out(i) is the assignment of s (e.g. "final
    long s0 = s;"). Without carry_out the top limb's carry is not computed (the sum fits)."""
    L = ["x = %s; y = %s; s = x + y; c = lt(s, x); %s" % (x(0), y(0), out(0))]
    for i in range(1, n):
        carry = " c = ((x & y) | ((x | y) & ~s)) >>> 63;" if carry_out or i < n - 1 else ""
        L.append("x = %s; y = %s; s = x + y + c;%s %s" % (x(i), y(i), carry, out(i)))
    return L


def sub_chain(x, y, out, n):
    """d = x - y limb by limb through locals x, y, d, bw, leaving the final borrow in bw; out(i) is
    the assignment of d."""
    L = ["x = %s; y = %s; d = x - y; bw = lt(x, y); %s" % (x(0), y(0), out(0))]
    for i in range(1, n):
        L.append("x = %s; y = %s; d = x - y - bw; bw = ((~x & y) | (~(x ^ y) & d)) >>> 63; %s" % (x(i), y(i), out(i)))
    return L


def add_masked(e, q, mask, out, n, carry_out=True):
    """e + (q & mask) limb by limb (q added back after a borrow); out(i) is the assignment of s."""
    L = ["s = %s + (%s & %s); c = lt(s, %s); %s" % (e(0), q(0), mask, e(0), out(0))]
    for i in range(1, n):
        carry = " c = ((%s & y) | ((%s | y) & ~s)) >>> 63;" % (e(i), e(i)) if carry_out or i < n - 1 else ""
        L.append("y = %s & %s; s = %s + y + c;%s %s" % (q(i), mask, e(i), carry, out(i)))
    return L


def const_minus(q, x, out, n, borrow_out=True):
    """q - x limb by limb (d, bw); out(i, v) is the statement that stores limb i's value v. Without
    borrow_out the top limb is one expression (q > x)."""
    L = ["d = %s - %s; bw = lt(%s, %s); %s" % (q(0), x(0), q(0), x(0), out(0, "d"))]
    for i in range(1, n):
        if borrow_out or i < n - 1:
            L.append("d = %s - %s - bw; bw = ((~%s & %s) | (~(%s ^ %s) & d)) >>> 63; %s"
                     % (q(i), x(i), q(i), x(i), q(i), x(i), out(i, "d")))
        else:
            L.append(out(i, "%s - %s - bw" % (q(i), x(i))))
    return L


def mul_acc(x, y, T, n, total):
    """T += x * y into the 2n-limb (total) accumulator T, row by row of the schoolbook product (locals
    lo, hi, s, s2, carry)."""
    L = []
    for i in range(n):
        L.append("carry = 0;")
        for j in range(n):
            k = i + j
            L.append("lo = %s * %s; hi = Math.unsignedMultiplyHigh(%s, %s);" % (x(i), y(j), x(i), y(j)))
            L.append("s = %s + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); %s = s2; carry = hi;"
                     % (T(k), T(k)))
        L.extend(propagate(T, i + n, total))
    return L


def propagate(T, start, total):
    """Adds carry into T(start) .. T(total - 1)."""
    return ["s = %s + carry; carry = lt(s, %s); %s = s;" % (T(k), T(k), T(k)) for k in range(start, total)]


def redc_rounds(T, q, qinv, n):
    """Montgomery reduction of the 2n-limb T in place: after it T(n) .. T(2n - 1) hold T R^-1, below
    2q when T < q R (locals m, lo, hi, s, s2, carry)."""
    L = []
    for i in range(n):
        L.append("m = %s * %s;" % (T(i), qinv))
        L.append("carry = 0;")
        for j in range(n):
            k = i + j
            L.append("lo = m * %s; hi = Math.unsignedMultiplyHigh(m, %s);" % (q(j), q(j)))
            L.append("s = %s + lo; hi += lt(s, lo); s2 = s + carry; hi += lt(s2, s); %s = s2; carry = hi;"
                     % (T(k), T(k)))
        L.extend(propagate(T, i + n, 2 * n))
    return L
