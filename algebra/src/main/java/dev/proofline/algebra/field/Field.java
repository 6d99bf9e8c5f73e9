package dev.proofline.algebra.field;

/**
 * Arithmetic of a finite field whose elements are stored as {@link #width()} consecutive longs of a
 * {@code long[]}, addressed by (array, offset). Vectors of elements are flat arrays, never arrays of
 * objects: element {@code i} of a vector starts at {@code i * width()}.
 *
 * <p>Every operation may write its result over one of its inputs. Prime fields are stateless and
 * thread-safe; extension fields keep scratch space, so a thread that works on one concurrently with
 * others takes its own instance with {@link #forThread()}.
 */
public abstract class Field {

    /** Longs per element. */
    public abstract int width();

    /** r = a * b. */
    public abstract void mul(long[] a, int ai, long[] b, int bi, long[] r, int ri);

    /** r = a^2. */
    public abstract void sqr(long[] a, int ai, long[] r, int ri);

    /** r = a + b. */
    public abstract void add(long[] a, int ai, long[] b, int bi, long[] r, int ri);

    /** r = a - b. */
    public abstract void sub(long[] a, int ai, long[] b, int bi, long[] r, int ri);

    /** r = 2a. */
    public abstract void dbl(long[] a, int ai, long[] r, int ri);

    /** r = -a. */
    public abstract void neg(long[] a, int ai, long[] r, int ri);

    /** r = a^-1; the inverse of zero is defined as zero. */
    public abstract void inv(long[] a, int ai, long[] r, int ri);

    /**
     * r = a^-1 (zero for zero) by a method whose time depends on a: faster than {@link #inv}, which
     * takes the same time for every a. For the batched inversions of the MSM's affine additions, whose
     * values are sums of the key's points. By default {@link #inv}.
     */
    public void invVartime(long[] a, int ai, long[] r, int ri) {
        inv(a, ai, r, ri);
    }

    public abstract boolean isZero(long[] a, int ai);

    public abstract boolean isOne(long[] a, int ai);

    public abstract void setOne(long[] r, int ri);

    /** An instance this thread may use while others use theirs (prime fields return themselves). */
    public abstract Field forThread();

    public void setZero(long[] r, int ri) {
        java.util.Arrays.fill(r, ri, ri + width(), 0L);
    }

    public void copy(long[] a, int ai, long[] r, int ri) {
        System.arraycopy(a, ai, r, ri, width());
    }

    /** Equality of two elements (representations are unique: always fully reduced). */
    public boolean eq(long[] a, int ai, long[] b, int bi) {
        int w = width();
        for (int i = 0; i < w; i++) {
            if (a[ai + i] != b[bi + i]) {
                return false;
            }
        }
        return true;
    }

    /** A new element, zero. */
    public long[] newElement() {
        return new long[width()];
    }

    /** A new vector of {@code n} elements, all zero. */
    public long[] newVector(int n) {
        return new long[Math.multiplyExact(n, width())];
    }

    /** A new element, one. */
    public long[] one() {
        long[] r = newElement();
        setOne(r, 0);
        return r;
    }

    /** r = a^e for a non-negative exponent given as little-endian 64-bit words. */
    public void pow(long[] a, int ai, long[] e, long[] r, int ri) {
        long[] acc = one();
        long[] base = newElement();
        copy(a, ai, base, 0);
        int top = 64 * e.length - 1;
        while (top >= 0 && ((e[top >>> 6] >>> (top & 63)) & 1) == 0) {
            top--;
        }
        for (int i = top; i >= 0; i--) {
            sqr(acc, 0, acc, 0);
            if (((e[i >>> 6] >>> (i & 63)) & 1) != 0) {
                mul(acc, 0, base, 0, acc, 0);
            }
        }
        copy(acc, 0, r, ri);
    }

    /**
     * Inverts {@code n} elements of {@code a} starting at element offset {@code ai} into {@code r}
     * with one field inversion (Montgomery's trick); zeros stay zero. {@code r} may be {@code a}.
     */
    public void batchInverse(long[] a, int ai, long[] r, int ri, int n) {
        int w = width();
        long[] prefix = new long[(n + 1) * w];
        setOne(prefix, 0);
        for (int i = 0; i < n; i++) {
            int src = ai + i * w;
            if (isZero(a, src)) {
                copy(prefix, i * w, prefix, (i + 1) * w);
            } else {
                mul(prefix, i * w, a, src, prefix, (i + 1) * w);
            }
        }
        long[] acc = newElement();
        inv(prefix, n * w, acc, 0);
        long[] t = newElement();
        for (int i = n - 1; i >= 0; i--) {
            int src = ai + i * w;
            if (isZero(a, src)) {
                setZero(r, ri + i * w);
                continue;
            }
            copy(a, src, t, 0);
            mul(acc, 0, prefix, i * w, r, ri + i * w);
            mul(acc, 0, t, 0, acc, 0);
        }
    }
}
