package dev.proofline.algebra.msm;

import java.lang.foreign.MemorySegment;

/**
 * An MSM's terms grouped by the width of their scalar, so that each group pays only for the windows
 * its scalars fill. A circuit's witness is rarely uniform: in hashes, comparators, range checks and
 * signatures most values are bits, many others are words of 32 or 64 bits, and only some are full
 * field elements; Pippenger's method over all of them at the full width would spend a window of
 * additions on every term for every c bits of the widest.
 *
 * <p>Each term falls into a class: dropped (a zero scalar or a point at infinity: it adds nothing),
 * the scalar 1 (summed directly, one addition a term), or the narrowest of the widths
 * {@link #WIDTHS} (or the full width) that holds its scalar. Neighbouring classes are then merged into
 * groups where the cost model finds one Pippenger run over both cheaper than two (each run has its own
 * bucket reductions): the cheapest cut of the classes, in order of width, into runs. A group's width is
 * the bit length of its widest scalar.
 *
 * <p>Scalars not below 2^(full width) (not reduced mod r) go to the full-width class, where the
 * recoding reduces them.
 */
final class WidthGroups {

    /** The cost of one Pippenger run over n terms of scalars below 2^bits, in any unit. */
    interface Cost {
        double of(int n, int bits);
    }

    /** Upper bounds (bits) of the classes between the scalar 1 and the full width. */
    static final int[] WIDTHS = {8, 16, 24, 32, 48, 64, 96, 128};

    private static final byte DROPPED = -1;
    /** Class 0 is the scalar 1; class i in 1..WIDTHS.length is width at most WIDTHS[i - 1]; the last, full. */
    private static final int CLASSES = WIDTHS.length + 2;

    private final int n;
    private final byte[] classOf;
    private final int[] groupOfClass;
    private final int groups;
    private final int[] from;
    private final int[] count;
    private final int[] bits;
    private final int terms;
    private final boolean inPlace;

    private WidthGroups(int n, byte[] classOf, int[] groupOfClass, int[] count, int[] bits, int groups, int dropped,
            int fullBits) {
        this.n = n;
        this.classOf = classOf;
        this.groupOfClass = groupOfClass;
        this.count = count;
        this.bits = bits;
        this.groups = groups;
        this.from = new int[groups];
        int t = 0;
        for (int g = 0; g < groups; g++) {
            from[g] = t;
            t += count[g];
        }
        this.terms = t;
        // in place, a dropped term's point may be at infinity with any scalar: only the full width reads all of it
        this.inPlace = groups == 1 && bits[0] != 1
                && (dropped == 0 || bits[0] == fullBits && dropped < Math.max(1, n / 8));
    }

    /** The bit length of the 4-word scalar at {@code scalars[s ..]} (0 for zero). */
    static int bitLength(long[] scalars, int s) {
        long k0 = scalars[s], k1 = scalars[s + 1], k2 = scalars[s + 2], k3 = scalars[s + 3];
        return k3 != 0 ? 256 - Long.numberOfLeadingZeros(k3)
                : k2 != 0 ? 192 - Long.numberOfLeadingZeros(k2)
                : k1 != 0 ? 128 - Long.numberOfLeadingZeros(k1)
                : 64 - Long.numberOfLeadingZeros(k0);
    }

    /**
     * Classifies the n terms (scalars from word {@code scalarBase}, 4 words each; points from byte
     * {@code pointBase}, {@code aw} words each) and chooses the groups, {@code cost} pricing a Pippenger
     * run. The terms whose scalar is 1 always make a group of their own (a term summed directly costs
     * less than in any window). Without {@code byWidth} every kept term goes to the full width.
     */
    static WidthGroups classify(MemorySegment points, long pointBase, int aw, long[] scalars, int scalarBase, int n,
            int fullBits, boolean byWidth, Cost cost) {
        byte[] classOf = new byte[n];
        int[] classCount = new int[CLASSES];
        int[] classBits = new int[CLASSES];
        int dropped = 0;
        for (int i = 0; i < n; i++) {
            int s = scalarBase + i * Msm.SCALAR_WORDS;
            int len = bitLength(scalars, s);
            if (len == 0 || isInfinity(points, pointBase + 8L * aw * i, aw)) {
                classOf[i] = DROPPED;
                dropped++;
                continue;
            }
            int c = !byWidth ? CLASSES - 1 : len == 1 ? 0 : widthClass(len, fullBits);
            classOf[i] = (byte) c;
            classCount[c]++;
            classBits[c] = Math.max(classBits[c], c == CLASSES - 1 ? fullBits : len);
        }
        // the cheapest cut of the non-empty width classes (in order) into runs: best[j] is the cost of the
        // first j of them, cut[j] where the last run of that cut starts
        int[] present = new int[CLASSES - 1];
        int p = 0;
        for (int c = 1; c < CLASSES; c++) {
            if (classCount[c] > 0) {
                present[p++] = c;
            }
        }
        double[] best = new double[p + 1];
        int[] cut = new int[p + 1];
        for (int j = 1; j <= p; j++) {
            best[j] = Double.POSITIVE_INFINITY;
            int terms = 0;
            for (int i = j; i >= 1; i--) {
                terms += classCount[present[i - 1]];
                double c = best[i - 1] + cost.of(terms, classBits[present[j - 1]]);
                if (c < best[j]) {
                    best[j] = c;
                    cut[j] = i;
                }
            }
        }
        int[] groupOfClass = new int[CLASSES];
        int[] count = new int[CLASSES];
        int[] bits = new int[CLASSES];
        int groups = 0;
        if (classCount[0] > 0) {
            groupOfClass[0] = groups;
            count[groups] = classCount[0];
            bits[groups] = 1;
            groups++;
        }
        // the runs, from the last back; then put in order of width
        int[] runStart = new int[p];
        int runs = 0;
        for (int j = p; j > 0; j = cut[j] - 1) {
            runStart[runs++] = j;
        }
        for (int r = runs - 1; r >= 0; r--) {
            int end = runStart[r];
            int start = cut[end];
            for (int i = start; i <= end; i++) {
                int c = present[i - 1];
                groupOfClass[c] = groups;
                count[groups] += classCount[c];
            }
            bits[groups] = classBits[present[end - 1]];
            groups++;
        }
        return new WidthGroups(n, classOf, groupOfClass, count, bits, groups, dropped, fullBits);
    }

    /** The class of a scalar of that bit length (at least 2). */
    private static int widthClass(int len, int fullBits) {
        for (int i = 0; i < WIDTHS.length; i++) {
            if (len <= WIDTHS[i] && WIDTHS[i] < fullBits) {
                return i + 1;
            }
        }
        return CLASSES - 1;
    }

    private static boolean isInfinity(MemorySegment points, long at, int aw) {
        for (int k = 0; k < aw; k++) {
            if (points.get(BucketKernel.WORD, at + 8L * k) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the MSM runs on the terms where they are: one Pippenger group and few terms dropped. */
    boolean inPlace() {
        return inPlace;
    }

    int groups() {
        return groups;
    }

    /** Terms kept, all groups. */
    int terms() {
        return terms;
    }

    /** Group g's first term in the packed order. */
    int from(int g) {
        return from[g];
    }

    int count(int g) {
        return count[g];
    }

    /** The bit length of group g's widest scalar; 1 for the group of scalars 1, summed directly. */
    int bits(int g) {
        return bits[g];
    }

    /** Lists the kept terms group after group: their indices, in order within a group, to {@code index}. */
    void pack(int[] index) {
        int[] next = from.clone();
        for (int i = 0; i < n; i++) {
            int c = classOf[i];
            if (c == DROPPED) {
                continue;
            }
            int j = next[groupOfClass[c]]++;
            index[j] = i;
        }
    }
}
