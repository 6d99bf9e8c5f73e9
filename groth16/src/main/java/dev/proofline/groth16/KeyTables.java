package dev.proofline.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.FixedBaseTable;
import dev.proofline.algebra.msm.Msm;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Precomputed multiples of a proving key's point sets ({@link FixedBaseTable}) for a key that stays
 * resident: its MSMs then add every window's digits into one set of buckets and reduce them once, which
 * is what a small proof's MSMs spend most on besides the additions themselves. Built by whoever keeps the
 * key ({@link #build}, then {@link ProvingKey#attach}); the {@link Prover}'s MSMs
 * ({@code ProofMsms}) use whichever tables a key has.
 *
 * <p>A table holds a set's points that are not at infinity, and is built for each set with at most
 * {@link #MAX_POINTS} of them while they fit into the memory given. H comes first: its scalars (the
 * quotient's coefficients) are dense in every circuit, where a bit-heavy circuit's witness makes A, B1, C
 * and B2 mostly sums of ones, which a table does not speed up. The others follow by the time the cost
 * model says their table saves a dense MSM per byte it takes: A, B1 and B2 often hold half their points or
 * fewer (the variables their matrix does not use are at infinity), and a table saves more at fewer points.
 * A dense BN254 G1 MSM with a table takes less time than one without, the more so the fewer its points
 * (BENCHMARKS.md, "Circom circuits").
 */
public final class KeyTables implements AutoCloseable {

    /**
     * The most points (not at infinity) a set's table holds: 2^16, whose BN254 G1 table takes 64 MiB. A
     * table of 2^17 points (128 MiB) saved a dense MSM little of its time, where tables of 41 000 to
     * 61 000 points saved much more (docs/decisions/0016-key-tables-plan.md).
     */
    public static final int MAX_POINTS = 1 << 16;

    private final FixedBaseTable a;
    private final FixedBaseTable b1;
    private final FixedBaseTable c;
    private final FixedBaseTable h;
    private final FixedBaseTable b2;
    /** Frees the memory the tables lie in where they do not own it (a mapped file); else nothing. */
    private final AutoCloseable memory;

    private KeyTables(FixedBaseTable a, FixedBaseTable b1, FixedBaseTable c, FixedBaseTable h, FixedBaseTable b2,
            AutoCloseable memory) {
        this.a = a;
        this.b1 = b1;
        this.c = c;
        this.h = h;
        this.b2 = b2;
        this.memory = memory;
    }

    /** Tables of the five sets in order (null: none), over memory that {@code memory} frees on close. */
    static KeyTables of(FixedBaseTable[] tables, AutoCloseable memory) {
        return new KeyTables(tables[0], tables[1], tables[2], tables[3], tables[4], memory);
    }

    /** The table of each of the five point sets in order, null where a set has none. */
    FixedBaseTable[] bySet() {
        return new FixedBaseTable[] {a, b1, c, h, b2};
    }

    /** A point set of the key: its curve, its points, and how many. */
    record Set(WeierstrassCurve curve, MemorySegment points, int count) {
    }

    /** The index of H in {@link #sets}: the set given memory first. */
    private static final int H = 3;

    /** The key's five point sets, in the order of the tables. */
    static List<Set> sets(ProvingKey key) {
        PairingCurve curve = key.curve();
        int nVars = key.variableCount();
        return List.of(new Set(curve.g1(), key.pointsA(), nVars), new Set(curve.g1(), key.pointsB1(), nVars),
                new Set(curve.g1(), key.pointsC(), nVars - key.publicCount() - 1),
                new Set(curve.g1(), key.pointsH(), key.domainSize()), new Set(curve.g2(), key.pointsB2(), nVars));
    }

    /**
     * The tables within {@code maxBytes} in all. A table holds the set's points that are not at infinity
     * (often half or less of A, B1 and B2), and a set gets one where there are at most {@link #MAX_POINTS}
     * of them. H is given memory first; then the others, most time saved per byte first (by the cost
     * model, for dense scalars), each while it fits in what is left.
     */
    private static Plan plan(List<Set> sets, long maxBytes) {
        int threads = Runtime.getRuntime().availableProcessors();
        int[] finite = new int[sets.size()];
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            Set s = sets.get(i);
            finite[i] = FixedBaseTable.finitePoints(s.curve(), s.points(), 0, s.count(), MAX_POINTS);
            if (finite[i] > 0 && finite[i] <= MAX_POINTS) {
                order.add(i);
            }
        }
        double[] perByte = new double[sets.size()];
        for (int i : order) {
            Set s = sets.get(i);
            int c = FixedBaseTable.windowBits(s.curve(), finite[i], threads, maxBytes);
            perByte[i] = c == 0 ? 0 : FixedBaseTable.saving(s.curve(), finite[i], threads, c)
                    / FixedBaseTable.bytes(s.curve(), finite[i], c);
        }
        order.sort(Comparator.comparing((Integer i) -> i != H).thenComparing(i -> -perByte[i]));
        int[] bits = new int[sets.size()];
        long left = maxBytes;
        for (int i : order) {
            Set s = sets.get(i);
            bits[i] = FixedBaseTable.windowBits(s.curve(), finite[i], threads, left);
            if (bits[i] != 0) {
                left -= FixedBaseTable.bytes(s.curve(), finite[i], bits[i]);
            }
        }
        return new Plan(bits, maxBytes - left);
    }

    /** The window bits of each set's table (0: none), and the bytes they take in all. */
    private record Plan(int[] bits, long bytes) {
    }

    /** The most native memory {@link #build} takes for the key within {@code maxBytes} (reserve it first). */
    public static long plannedBytes(ProvingKey key, long maxBytes) {
        return plan(sets(key), maxBytes).bytes();
    }

    /**
     * Tables for the key's point sets with at most {@link #MAX_POINTS} points not at infinity, in at most
     * {@code maxBytes} of native memory in all; none where nothing fits. Takes about as long as 20 to 40 of
     * the key's MSMs (about 254 doublings a point), on all processors.
     */
    public static KeyTables build(ProvingKey key, long maxBytes) {
        return build(key, maxBytes, () -> { });
    }

    /**
     * As {@link #build(ProvingKey, long)}, calling {@code beforeChunk} before each chunk of points a thread
     * builds: a caller whose build must give way to other work waits there.
     */
    public static KeyTables build(ProvingKey key, long maxBytes, Runnable beforeChunk) {
        List<Set> sets = sets(key);
        int[] bits = plan(sets, maxBytes).bits();
        FixedBaseTable[] built = new FixedBaseTable[sets.size()];
        try {
            for (int i = 0; i < sets.size(); i++) {
                if (bits[i] != 0) {
                    Set s = sets.get(i);
                    built[i] = FixedBaseTable.build(s.curve(), s.points(), 0, s.count(), bits[i], beforeChunk);
                }
            }
        } catch (RuntimeException | Error e) {
            for (FixedBaseTable t : built) {
                if (t != null) {
                    t.close();
                }
            }
            throw e;
        }
        return new KeyTables(built[0], built[1], built[2], built[3], built[4], () -> { });
    }

    /**
     * Builds the key's tables within {@code maxBytes} ({@link #build}) and attaches them to it; where the
     * key is closed meanwhile (a resident key unloaded while its tables were built) or there is no native
     * memory for them, the key goes on without tables. Returns what the key has: "tables" and their size,
     * or why it has none, in a few words.
     */
    public static String attachTo(ProvingKey key, long maxBytes) {
        return attachBuilt(key, maxBytes, null, () -> { });
    }

    /**
     * As {@link #attachTo}, calling {@code beforeChunk} before each chunk of points a thread builds (a
     * caller whose build must give way to other work waits there), and writing the tables to
     * {@code cache} (null: none) before they are attached.
     */
    public static String attachBuilt(ProvingKey key, long maxBytes, KeyTableCache cache, Runnable beforeChunk) {
        return attach(key, maxBytes, () -> {
            KeyTables built = build(key, maxBytes, beforeChunk);
            if (cache != null) {
                cache.store(key, maxBytes, built);
            }
            return built;
        });
    }

    /**
     * Attaches the key's tables for {@code maxBytes} mapped from {@code cache} where it holds them, and
     * returns what the key has then ({@link #attachTo}'s words); empty where the cache has none.
     */
    public static java.util.Optional<String> attachCached(ProvingKey key, long maxBytes, KeyTableCache cache) {
        return cache.load(key, maxBytes).map(cached -> attach(key, maxBytes, () -> cached));
    }

    private static String attach(ProvingKey key, long maxBytes, java.util.function.Supplier<KeyTables> tables) {
        try {
            KeyTables t = tables.get();
            if (!key.attach(t)) {
                return "no tables (the key was closed)";
            }
            if (t.count() > 0) {
                return "tables of " + t.bytes() + " bytes";
            }
            return plannedBytes(key, Long.MAX_VALUE) == 0
                    ? "no tables (no point set has at most 2^" + Integer.numberOfTrailingZeros(MAX_POINTS)
                            + " points not at infinity)"
                    : "no tables (none fits the memory given)";
        } catch (IllegalStateException | OutOfMemoryError e) {
            return "no tables (" + e.getMessage() + ")";
        }
    }

    /** Native memory held by the tables. */
    public long bytes() {
        long b = 0;
        for (FixedBaseTable t : tables()) {
            b += t.bytes();
        }
        return b;
    }

    /** How many of the five point sets have a table. */
    public int count() {
        return tables().size();
    }

    private List<FixedBaseTable> tables() {
        List<FixedBaseTable> l = new ArrayList<>();
        for (FixedBaseTable t : new FixedBaseTable[] {a, b1, c, h, b2}) {
            if (t != null) {
                l.add(t);
            }
        }
        return l;
    }

    FixedBaseTable a() {
        return a;
    }

    FixedBaseTable b1() {
        return b1;
    }

    FixedBaseTable c() {
        return c;
    }

    FixedBaseTable h() {
        return h;
    }

    FixedBaseTable b2() {
        return b2;
    }

    /**
     * sum_{i < count} k_{from+i} P_i over a point set: through its table where it has one, else from the
     * key's points.
     */
    static long[] multiply(Msm msm, FixedBaseTable table, MemorySegment points, long[] scalars, int from, int count) {
        return table != null ? msm.multiply(table, scalars, from, count) : msm.multiply(points, 0, scalars, from, count);
    }

    @Override
    public void close() {
        tables().forEach(FixedBaseTable::close);
        try {
            memory.close();
        } catch (Exception e) {
            throw new IllegalStateException("the tables' memory could not be freed", e);
        }
    }

    @Override
    public String toString() {
        return "KeyTables[" + count() + " of 5 point sets, " + bytes() + " bytes]";
    }
}
