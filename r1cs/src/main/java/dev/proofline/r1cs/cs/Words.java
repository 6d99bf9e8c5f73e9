package dev.proofline.r1cs.cs;

import java.util.Arrays;

/** A growable vector of 4-word field elements. */
final class Words {
    private long[] w = new long[64];
    private int n;

    int size() {
        return n;
    }

    long[] array() {
        return w;
    }

    /** Appends an element (a zero element when {@code v} is null); returns its index. */
    int add(long[] v) {
        if ((n + 1) * 4 > w.length) {
            w = Arrays.copyOf(w, Math.max(w.length * 2, 64));
        }
        if (v != null) {
            System.arraycopy(v, 0, w, n * 4, 4);
        }
        return n++;
    }

    /** Appends the element at {@code src[si..si+4)}. */
    int add(long[] src, int si) {
        if ((n + 1) * 4 > w.length) {
            w = Arrays.copyOf(w, Math.max(w.length * 2, 64));
        }
        System.arraycopy(src, si, w, n * 4, 4);
        return n++;
    }

    long[] trimmed() {
        return Arrays.copyOf(w, n * 4);
    }
}
