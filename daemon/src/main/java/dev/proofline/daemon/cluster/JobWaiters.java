package dev.proofline.daemon.cluster;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Clients waiting for jobs of the store to end: a future per wait, completed when its job ends. */
final class JobWaiters {

    private final Map<String, List<CompletableFuture<Void>>> byJob = new ConcurrentHashMap<>();

    /** Completes when {@code jobId} ends; cancelling it stops the wait. */
    CompletableFuture<Void> watch(String jobId) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        byJob.computeIfAbsent(jobId, k -> new CopyOnWriteArrayList<>()).add(f);
        f.whenComplete((v, x) -> byJob.computeIfPresent(jobId, (k, l) -> {
            l.remove(f);
            return l.isEmpty() ? null : l;
        }));
        return f;
    }

    /** The job ended: its waits complete. */
    void ended(String jobId) {
        List<CompletableFuture<Void>> l = byJob.remove(jobId);
        if (l != null) {
            l.forEach(f -> f.complete(null));
        }
    }

    boolean isEmpty() {
        return byJob.isEmpty();
    }

    /** The jobs waited for now. */
    List<String> jobs() {
        return List.copyOf(byJob.keySet());
    }

    /** Every wait fails with {@code why} (the node stops). */
    void failAll(String why) {
        byJob.values().forEach(l -> l.forEach(f -> f.completeExceptionally(new IllegalStateException(why))));
    }
}
