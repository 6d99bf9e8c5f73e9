#!/usr/bin/env python3
"""Generates the unrolled 4-limb Montgomery steps inside two hand-written classes: the NTT's
butterflies (algebra/.../ntt/Montgomery4Butterflies.java) and the PCE's row sums
(r1cs/.../pce/Montgomery4Rows.java). Both serve any 4-limb field with a spare top bit, with the
modulus in locals q0..q3 and -q^-1 mod 2^64 in qInv, and are written around marked regions:

    // generated (algebra/gen/gen_montgomery4.py): <snippet>
    ...
    // end generated

The loops, the names and the comments outside the regions are the class's own; each region's lines
come from the snippet of that name below, built from the emitters of limbs.py (the field classes'
generator, gen_fields.py, uses the same ones).

Run from the repository root:  python3 algebra/gen/gen_montgomery4.py           (rewrites the regions)
                               python3 algebra/gen/gen_montgomery4.py --check   (exit 1 if one differs)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import limbs as steps  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FILES = [
    "algebra/src/main/java/dev/proofline/algebra/ntt/Montgomery4Butterflies.java",
    "r1cs/src/main/java/dev/proofline/r1cs/pce/Montgomery4Rows.java",
]
N = 4
q = steps.names("q")


def elem(array, offset):
    """Limb i of a value at array[offset]: array[offset] for limb 0, array[offset + i] after."""
    return lambda i: "%s[%s]" % (array, offset) if i == 0 else "%s[%s + %d]" % (array, offset, i)


def reduced(src, diff, keep, out):
    """out = src - q unless that borrows, else src (src below 2q)."""
    return (steps.minus_q(src, q, steps.names(diff), N) + ["final long %s = -bw;" % keep]
            + steps.select(keep, src, steps.names(diff), out, N))


def snippet(name):
    x, y, r, t, u, v = (steps.names(p) for p in "xyrtuv")
    if name == "mul r = x * y":
        return steps.cios_rounds(x, y, r, q, "qInv", N, "r = (r + x*y%d + m*q) / 2^64", shortcut=True)
    if name == "t = r reduced":
        return reduced(r, "d", "keep", lambda i: "t%d = " % i)
    if name == "t = t reduced":
        return reduced(t, "g", "k", lambda i: "t%d = " % i)
    if name == "a[v] = u - t":
        return (steps.sub_chain(u, t, lambda i: "final long e%d = d;" % i, N)
                + ["final long mask = -bw;", "long s;"]
                + steps.add_masked(steps.names("e"), q, "mask", lambda i: elem("a", "v")(i) + " = s;", N,
                                   carry_out=False))
    if name in ("a[u] = u + t", "a[u] = u + v"):
        return (steps.add_chain(u, t if name.endswith("t") else v, lambda i: "final long s%d = s;" % i, N,
                                carry_out=False)
                + reduced(steps.names("s"), "f", "keep", lambda i: elem("a", "u")(i) + " = "))
    if name == "t = m - n":
        return (steps.sub_chain(steps.names("m"), steps.names("n"), lambda i: "final long e%d = d;" % i, N)
                + ["final long mask = -bw;", "long t0, t1, t2, t3;"]
                + steps.add_masked(steps.names("e"), q, "mask", lambda i: "t%d = s;" % i, N, carry_out=False))
    T = steps.names("T")
    if name == "T += x * y":
        return steps.mul_acc(x, y, T, N, 2 * N)
    if name == "T = T R^-1":
        return steps.redc_rounds(T, q, "qInv", N)
    if name == "T4..T7 minus q":
        return steps.minus_q(lambda i: "T%d" % (N + i), q, steps.names("d"), N)
    if name == "sum = sum + t":
        return (steps.add_chain(lambda i: "sum[%d]" % i, t,
                                lambda i: "final long u%d = s;" % i, N, carry_out=False)
                + ["long d, bw;"] + reduced(steps.names("u"), "f", "keep", lambda i: "sum[%d] = " % i))
    if name == "t = q - a":
        return steps.const_minus(q, steps.names("a"), lambda i, val: "final long t%d = %s;" % (i, val), N,
                                 borrow_out=False)
    raise SystemExit("unknown snippet '%s'" % name)


BEGIN = re.compile(r"^(\s*)// generated \(algebra/gen/gen_montgomery4\.py\): (.+)$")
END = re.compile(r"^\s*// end generated$")


def regenerate(text, path):
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = BEGIN.match(line)
        i += 1
        if not m:
            continue
        indent, name = m.group(1), m.group(2)
        while i < len(lines) and not END.match(lines[i]):
            i += 1
        if i == len(lines):
            raise SystemExit("%s: region '%s' has no '// end generated'" % (path, name))
        out.extend(indent + s for s in snippet(name))
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for rel in FILES:
        path = os.path.join(ROOT, rel)
        with open(path) as f:
            text = f.read()
        new = regenerate(text, rel)
        if new != text:
            stale.append(rel)
            if not check:
                with open(path, "w") as f:
                    f.write(new)
    if check and stale:
        print("out of date with algebra/gen/gen_montgomery4.py: " + ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
