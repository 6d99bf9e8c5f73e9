package dev.proofline.daemon.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.daemon.store.ClusterStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the SQLite store costs by itself, apart from proving: the latency of a submission (its commit
 * fsyncs), alone and from 4 threads, and the bookkeeping of a whole job (submit, claim, result, fetch).
 * Prints its figures; runs only with {@code -Dproofline.store.bench=true} (docs/reliability.md).
 */
class SqliteStoreBenchTest {

    private static final List<String> CIRCUITS = List.of("c");
    private static final List<String> DIGESTS = List.of("d");

    @TempDir
    Path dir;

    private static String percentiles(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return String.format("p50 %.2f ms, p99 %.2f ms, max %.2f ms", s[s.length / 2] / 1e6,
                s[(int) (s.length * 0.99)] / 1e6, s[s.length - 1] / 1e6);
    }

    private static List<ClusterStore.NewPartition> witness(int bytes) {
        return List.of(new ClusterStore.NewPartition(ClusterStore.PartitionKind.WTNS, new byte[bytes]));
    }

    @Test
    void theStoresOwnCost() throws Exception {
        assumeTrue(Boolean.getBoolean("proofline.store.bench"), "-Dproofline.store.bench=true runs it");
        int n = Integer.getInteger("proofline.store.bench.jobs", 500);
        try (ClusterStore store = SqliteStore.open(dir)) {
            long[] one = new long[n];
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                store.queue().submit(null, "c", "d", 1, null, "local", witness(1024));
                one[i] = System.nanoTime() - t;
            }
            System.out.println("store bench: submit of a 1 KiB witness, 1 thread: " + percentiles(one));

            long[] four = new long[n];
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                fs.add(pool.submit(() -> {
                    long t = System.nanoTime();
                    store.queue().submit(null, "c", "d", 1, null, "local", witness(1024));
                    four[k] = System.nanoTime() - t;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();
            System.out.println("store bench: submit of a 1 KiB witness, 4 threads: " + percentiles(four));

            long[] big = new long[20];
            for (int i = 0; i < big.length; i++) {
                long t = System.nanoTime();
                store.queue().submit(null, "c", "d", 1, null, "local", witness(16 << 20));
                big[i] = System.nanoTime() - t;
            }
            System.out.println("store bench: submit of a 16 MiB witness: " + percentiles(big));

            long[] claim = new long[n];
            long[] complete = new long[n];
            long[] fetch = new long[n];
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                ClusterStore.Claim c = store.queue().claim("local", 1, Duration.ofMinutes(1), CIRCUITS, DIGESTS).getFirst();
                claim[i] = System.nanoTime() - t;
                t = System.nanoTime();
                store.queue().complete(c, "local", "{}", new byte[256], List.of("1", "2"), new double[6]);
                complete[i] = System.nanoTime() - t;
                t = System.nanoTime();
                store.views().job(c.jobId(), true);
                fetch[i] = System.nanoTime() - t;
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.println("store bench: claim " + percentiles(claim) + "; result " + percentiles(complete)
                    + "; await (fetch) " + percentiles(fetch) + "; " + Math.round(n / seconds)
                    + " jobs/s through claim, result and fetch on one thread");
            Map<String, Long> states = SqliteStore.partitionStates(store);
            assertEquals(n, states.get("DONE"), states.toString());
        }
    }
}
