package dev.proofline.algebra.msm;

import dev.proofline.algebra.curve.EndomorphismSubgroupCheck;
import java.util.Arrays;

/**
 * Jacobian point arithmetic (a = 0) on eight points at once, in registers of a {@link LaneField}: a
 * point is three registers (X, Y, Z), an affine one two. The formulas of {@code PointArithmetic}
 * (dbl-2009-l, add-2007-bl, madd-2007-bl) without its special cases: the additions report the lanes
 * where both points have the same x (equal or opposite points, or one at infinity in the mixed
 * addition's case of X1 = 0 and Z1 = 0), whose results are wrong there, for the caller to redo with
 * the scalar code. Confined to one thread.
 */
final class LanePoints {

    final LaneField f;
    /** The registers: {@link #point}(i) for the caller's points, then twelve temporaries, then the field's scratch. */
    final long[] x;
    final int reg;
    private final int tmp;
    /** Eight elements' words, for loading constants. */
    private final long[] words;

    LanePoints(LaneField f, int points) {
        this.f = f;
        this.reg = f.register();
        this.tmp = points * 3 * reg;
        int scratch = tmp + 12 * reg;
        this.x = new long[scratch + f.scratch()];
        f.scratchAt(scratch);
        this.words = new long[8 * f.width()];
    }

    /** Where the caller's point i starts (its X; Y and Z follow, a register each). */
    int point(int i) {
        return i * 3 * reg;
    }

    /** r = 2p; r may be p. */
    void dbl(int p, int r) {
        final int a = tmp, b = tmp + reg, c = tmp + 2 * reg, d = tmp + 3 * reg, e = tmp + 4 * reg,
                ff = tmp + 5 * reg;
        final int px = p, py = p + reg, pz = p + 2 * reg, rx = r, ry = r + reg, rz = r + 2 * reg;
        f.sqr(x, px, a);                 // A = X^2
        f.sqr(x, py, b);                 // B = Y^2
        f.sqr(x, b, c);                  // C = B^2
        f.add(x, px, b, d);
        f.sqr(x, d, d);
        f.sub(x, d, a, d);
        f.sub(x, d, c, d);
        f.add(x, d, d, d);               // D = 2((X + B)^2 - A - C)
        f.add(x, a, a, e);
        f.add(x, e, a, e);               // E = 3A
        f.sqr(x, e, ff);                 // F = E^2
        f.mul(x, py, pz, rz);
        f.add(x, rz, rz, rz);            // Z3 = 2 Y Z
        f.sub(x, ff, d, rx);
        f.sub(x, rx, d, rx);             // X3 = F - 2D
        f.sub(x, d, rx, d);
        f.mul(x, e, d, d);               // E (D - X3)
        f.add(x, c, c, c);
        f.add(x, c, c, c);
        f.add(x, c, c, c);               // 8C
        f.sub(x, d, c, ry);              // Y3 = E (D - X3) - 8C
    }

    /** r = p + q, both Jacobian; r may be p. Returns the lanes where p and q have the same x. */
    long add(int p, int q, int r) {
        final int z1z1 = tmp, z2z2 = tmp + reg, u1 = tmp + 2 * reg, u2 = tmp + 3 * reg, s1 = tmp + 4 * reg,
                s2 = tmp + 5 * reg, h = tmp + 6 * reg, i = tmp + 7 * reg, j = tmp + 8 * reg, rr = tmp + 9 * reg,
                v = tmp + 10 * reg, z3 = tmp + 11 * reg;
        final int px = p, py = p + reg, pz = p + 2 * reg, qx = q, qy = q + reg, qz = q + 2 * reg;
        f.sqr(x, pz, z1z1);
        f.sqr(x, qz, z2z2);
        f.mul(x, px, z2z2, u1);
        f.mul(x, qx, z1z1, u2);
        f.mul(x, py, qz, s1);
        f.mul(x, s1, z2z2, s1);          // S1 = Y1 Z2 Z2Z2
        f.mul(x, qy, pz, s2);
        f.mul(x, s2, z1z1, s2);          // S2 = Y2 Z1 Z1Z1
        f.sub(x, u2, u1, h);             // H = U2 - U1
        long same = f.zeroLanes(x, h);
        f.sub(x, s2, s1, rr);
        f.add(x, rr, rr, rr);            // r = 2 (S2 - S1)
        f.add(x, h, h, i);
        f.sqr(x, i, i);                  // I = (2H)^2
        f.mul(x, h, i, j);               // J = H I
        f.mul(x, u1, i, v);              // V = U1 I
        f.add(x, pz, qz, z3);
        f.sqr(x, z3, z3);
        f.sub(x, z3, z1z1, z3);
        f.sub(x, z3, z2z2, z3);
        f.mul(x, z3, h, z3);             // Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H
        f.mul(x, s1, j, s1);             // S1 J
        end(rr, j, v, s1, z3, r);
        return same;
    }

    /**
     * r = p + q, p Jacobian, q affine (its x and y registers at q); r may be p. Returns the lanes where
     * p and q have the same x (and those where p is at infinity with X = 0).
     */
    long addMixed(int p, int q, int r) {
        final int z1z1 = tmp, u2 = tmp + reg, s2 = tmp + 2 * reg, h = tmp + 3 * reg, hh = tmp + 4 * reg,
                i = tmp + 5 * reg, j = tmp + 6 * reg, rr = tmp + 7 * reg, v = tmp + 8 * reg, z3 = tmp + 9 * reg,
                yj = tmp + 10 * reg;
        final int px = p, py = p + reg, pz = p + 2 * reg, qx = q, qy = q + reg;
        f.sqr(x, pz, z1z1);
        f.mul(x, qx, z1z1, u2);          // U2 = X2 Z1Z1
        f.mul(x, qy, pz, s2);
        f.mul(x, s2, z1z1, s2);          // S2 = Y2 Z1 Z1Z1
        f.sub(x, u2, px, h);             // H = U2 - X1
        long same = f.zeroLanes(x, h);
        f.sqr(x, h, hh);                 // HH = H^2
        f.add(x, hh, hh, i);
        f.add(x, i, i, i);               // I = 4 HH
        f.mul(x, h, i, j);               // J = H I
        f.sub(x, s2, py, rr);
        f.add(x, rr, rr, rr);            // r = 2 (S2 - Y1)
        f.mul(x, px, i, v);              // V = X1 I
        f.mul(x, py, j, yj);             // Y1 J
        f.add(x, pz, h, z3);
        f.sqr(x, z3, z3);
        f.sub(x, z3, z1z1, z3);
        f.sub(x, z3, hh, z3);            // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        end(rr, j, v, yj, z3, r);
        return same;
    }

    /**
     * The end both additions share: X3 = r^2 - J - 2V, Y3 = r (V - X3) - 2t (t: S1 J or Y1 J), Z3 from
     * z3, to the point at r (written only here, so r may be an input). v and t are overwritten.
     */
    private void end(int rr, int j, int v, int t, int z3, int r) {
        final int rx = r, ry = r + reg, rz = r + 2 * reg;
        f.sqr(x, rr, rx);
        f.sub(x, rx, j, rx);
        f.sub(x, rx, v, rx);
        f.sub(x, rx, v, rx);             // X3 = r^2 - J - 2V
        f.sub(x, v, rx, v);
        f.mul(x, rr, v, v);
        f.add(x, t, t, t);
        f.sub(x, v, t, ry);              // Y3 = r (V - X3) - 2t
        System.arraycopy(x, z3, x, rz, reg);
    }

    /**
     * The lanes where the Jacobian points at p and q are the same point (neither at infinity):
     * X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3. Uses the temporaries.
     */
    long equal(int p, int q) {
        final int z1z1 = tmp, z2z2 = tmp + reg, a = tmp + 2 * reg, b = tmp + 3 * reg;
        f.sqr(x, p + 2 * reg, z1z1);
        f.sqr(x, q + 2 * reg, z2z2);
        f.mul(x, p, z2z2, a);
        f.mul(x, q, z1z1, b);
        f.sub(x, a, b, a);
        long same = f.zeroLanes(x, a);
        f.mul(x, z1z1, p + 2 * reg, z1z1);   // Z1^3
        f.mul(x, z2z2, q + 2 * reg, z2z2);   // Z2^3
        f.mul(x, p + reg, z2z2, a);
        f.mul(x, q + reg, z1z1, b);
        f.sub(x, a, b, a);
        return same & f.zeroLanes(x, a) & ~f.zeroLanes(x, p + 2 * reg) & ~f.zeroLanes(x, q + 2 * reg);
    }

    /**
     * r = phi(p) for phi(x, y) = (cx frob(x), cy frob(y)), frob conjugation when {@code conjugates}: on
     * Jacobian coordinates (X, Y, Z) -> (cx frob(X), cy frob(Y), frob(Z)); cx and cy are registers
     * holding the coefficients in every lane, cy null for one. r may be p.
     */
    void endomorphism(int p, int r, int cx, int cy, boolean conjugates) {
        if (p != r) {
            System.arraycopy(x, p, x, r, 3 * reg);
        }
        if (conjugates) {
            f.conjugate(x, r);
            f.conjugate(x, r + reg);
            f.conjugate(x, r + 2 * reg);
        }
        f.mul(x, r, cx, r);
        if (cy >= 0) {
            f.mul(x, r + reg, cy, r + reg);
        }
    }

    /** Loads one field element into all eight lanes of the register at o. */
    void broadcast(long[] element, int o) {
        int w = f.width();
        for (int l = 0; l < 8; l++) {
            System.arraycopy(element, 0, words, l * w, w);
        }
        f.load(words, 0, x, o);
    }

    /**
     * The coefficients of phi into every lane, cx at the register at, cy at the one after unless it is
     * one; returns where cy is, or -1 for one (as {@link #endomorphism} takes them).
     */
    int coefficients(EndomorphismSubgroupCheck map, int at) {
        long[] one = map.arithmetic().field().newElement();
        map.arithmetic().field().setOne(one, 0);
        long[] cy = map.cy();
        broadcast(map.cx(), at);
        if (Arrays.equals(cy, one)) {
            return -1;
        }
        broadcast(cy, at + reg);
        return at + reg;
    }
}
