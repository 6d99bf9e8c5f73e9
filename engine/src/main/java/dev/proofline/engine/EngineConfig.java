package dev.proofline.engine;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Sizes of an engine's stages and its limits; made with {@link #builder()}, which starts from
 * {@link #defaults()}.
 *
 * @param maxProverQueueDepth permits: partitions between the start of synthesis and the end of prover start;
 *     {@link #AUTO_PERMITS} (the default) lets the engine size them from what it measures ({@link PermitSizer})
 * @param synthesisThreads threads synthesizing partitions
 * @param proverWorkers prover workers per device of the backend (each bound to its device)
 * @param finalizerThreads threads finishing proofs (the backend's CPU tail)
 * @param budgetBytes the memory budget shared by keys, PCEs, partitions and idle pool buffers
 * @param timelineCapacity events kept by the timeline's ring buffer
 * @param resultRetention how long an ended job (and its idempotency key) stays findable
 * @param loadTimeout how long loading a key or PCE waits for room in the budget before it gives up
 * @param timelineLog where each timeline event goes as one line, or null
 * @param keyTableBytes native memory for each resident key's precomputed tables (paid for from the
 *     budget with the key); 0: none
 * @param keyTableCache the folder where keys' tables are kept between runs (the Groth16 layer's cache of
 *     them); null: built at every start, kept nowhere
 */
public record EngineConfig(int maxProverQueueDepth, int synthesisThreads, int proverWorkers, int finalizerThreads,
        long budgetBytes, int timelineCapacity, Duration resultRetention,
        Duration loadTimeout, Consumer<String> timelineLog, long keyTableBytes, java.nio.file.Path keyTableCache) {

    /** {@code maxProverQueueDepth} for permits sized by the engine ({@code permits = "auto"}). */
    public static final int AUTO_PERMITS = 0;

    public EngineConfig {
        if (maxProverQueueDepth < 0 || synthesisThreads < 1 || proverWorkers < 1 || finalizerThreads < 1) {
            throw new IllegalArgumentException("queue depth and thread counts must be at least 1");
        }
        if (budgetBytes <= 0 || timelineCapacity < 1) {
            throw new IllegalArgumentException("budget and timeline capacity must be positive");
        }
        if (keyTableBytes < 0) {
            throw new IllegalArgumentException("key table bytes must not be negative: " + keyTableBytes);
        }
    }

    /**
     * For a laptop: permits sized by the engine, half the cores synthesizing and half finalizing, one prover
     * worker (per device), a budget of three quarters of the heap limit, 4096 timeline events, results kept
     * 10 minutes, loads waiting for room at most 5 minutes, no timeline log and no key tables.
     */
    public static EngineConfig defaults() {
        return builder().build();
    }

    /** A builder holding {@link #defaults()}, to change one knob at a time. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether the engine sizes its permits ({@code permits = "auto"}). */
    public boolean autoPermits() {
        return maxProverQueueDepth == AUTO_PERMITS;
    }

    /** Builds a configuration from {@link #defaults()}, one knob at a time; {@link #build} checks it. */
    public static final class Builder {
        private int permits = AUTO_PERMITS;
        private int synthesisThreads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        private int proverWorkers = 1;
        private int finalizerThreads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        private long budgetBytes = Runtime.getRuntime().maxMemory() / 4 * 3;
        private int timelineCapacity = 4096;
        private Duration resultRetention = Duration.ofMinutes(10);
        private Duration loadTimeout = Duration.ofMinutes(5);
        private Consumer<String> timelineLog;
        private long keyTableBytes;
        private java.nio.file.Path keyTableCache;

        private Builder() {
        }

        /** Prover-queue permits ({@code maxProverQueueDepth}); {@link #AUTO_PERMITS}: sized by the engine. */
        public Builder permits(int permits) {
            this.permits = permits;
            return this;
        }

        public Builder synthesisThreads(int threads) {
            this.synthesisThreads = threads;
            return this;
        }

        /** Prover workers per device of the backend. */
        public Builder proverWorkers(int workers) {
            this.proverWorkers = workers;
            return this;
        }

        public Builder finalizerThreads(int threads) {
            this.finalizerThreads = threads;
            return this;
        }

        public Builder budgetBytes(long bytes) {
            this.budgetBytes = bytes;
            return this;
        }

        public Builder timelineCapacity(int events) {
            this.timelineCapacity = events;
            return this;
        }

        public Builder resultRetention(Duration retention) {
            this.resultRetention = retention;
            return this;
        }

        public Builder loadTimeout(Duration timeout) {
            this.loadTimeout = timeout;
            return this;
        }

        /** Where each timeline event goes as one line (null: nowhere). */
        public Builder timelineLog(Consumer<String> log) {
            this.timelineLog = log;
            return this;
        }

        /** Precomputed tables of at most {@code bytes} for each resident key (0: none). */
        /** Where keys' tables are kept between runs; null (the default): nowhere. */
        public Builder keyTableCache(java.nio.file.Path dir) {
            this.keyTableCache = dir;
            return this;
        }

        public Builder keyTableBytes(long bytes) {
            this.keyTableBytes = bytes;
            return this;
        }

        public EngineConfig build() {
            return new EngineConfig(permits, synthesisThreads, proverWorkers, finalizerThreads, budgetBytes,
                    timelineCapacity, resultRetention, loadTimeout, timelineLog, keyTableBytes, keyTableCache);
        }
    }
}
