package dev.proofline.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * How an engine started without the 8-lane kernels ({@code engine run --no-kernels}: what a one-off
 * command starts, docs/decisions/0026-kernels-engine-takes-over-once-warm.md) makes way for one with
 * them once a key of 2^{@link EngineWarmUp#kernelsFromLog} or more is proved with: it goes on serving,
 * and starts beside it its successor ({@code engine run --succeed <its pid>}), which, at the engine's
 * own turns ({@link Housekeeping}: while no request runs and the processors are not busy), compiles
 * the kernels and proves the keys this one wrote down a few times (KeysAcrossRestarts); then takes
 * over: it writes its endpoint (the next requests go to it), asks this one to hand over (it stops after
 * the commands it has taken, and leaves the successor running), and takes the state directory's lock
 * once this one has let it go. Until then every request is served by the engine without the kernels,
 * which the JVM options of a one-off command serve sooner than an engine compiling the kernels beside
 * them would.
 *
 * <p>Nothing is left behind: an engine that stops for any other reason (asked, idle, terminated) ends
 * its successor; a successor whose predecessor ends before it took over stops too.
 */
final class Succession {

    /** The control request of a successor to its predecessor: {@code engine hand-over}. */
    static final String HAND_OVER = "hand-over";

    /** How long the machine is left to the engine's own work before a successor starts. */
    static final Duration QUIET = Duration.ofSeconds(1);

    /**
     * On a machine that never falls quiet for {@link #QUIET} (a loop of commands, a busy service), the
     * successor starts anyway once this long has passed with at least {@link #BUSY_REQUESTS} requests: the
     * requests it slows while it warms up are fewer than those it then serves faster.
     */
    static final Duration BUSY = Duration.ofMinutes(1);
    static final int BUSY_REQUESTS = 20;

    /** How long a successor waits for its predecessor, stopping after its commands, to let the lock go. */
    private static final Duration LOCK_WAIT = Duration.ofMinutes(10);

    private final EngineHome home;
    private final Consumer<String> log;
    private final AtomicBoolean started = new AtomicBoolean();
    /** The arguments this engine was started with ({@code engine run ...}), for its successor's command line. */
    private volatile java.util.List<String> ownArgs = java.util.List.of();
    private volatile Process successor;
    private volatile boolean handedOver;
    private boolean stopped;

    /** The predecessor's side, for the engine of {@code home}. */
    Succession(EngineHome home, Consumer<String> log) {
        this.home = home;
        this.log = log;
    }

    /** This engine was started with {@code args} ({@code engine run ...}). */
    void startedWith(java.util.List<String> args) {
        ownArgs = java.util.List.copyOf(args);
    }

    /**
     * A key of 2^{@code logDomainSize} was proved with: starts the successor, once, when the engine's
     * {@code housekeeping} has had its turn for {@link #QUIET} (its JVM's start takes the cores for a while),
     * or on a busy machine after {@link #BUSY}.
     */
    void start(int logDomainSize, Housekeeping housekeeping) {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        housekeeping.submit(() -> {
            boolean busy = !housekeeping.awaitQuiet(QUIET, BUSY, BUSY_REQUESTS);
            synchronized (this) {
                if (stopped || Thread.currentThread().isInterrupted()) {
                    return;
                }
                try {
                    successor = AutoStart.spawn(home, System.getenv(), ownArgs, false, logDomainSize,
                            ProcessHandle.current().pid());
                    log.accept("a key of 2^" + logDomainSize + " wants the 8-lane kernels: an engine with them (pid "
                            + successor.pid() + ") warms up beside this one and takes over once warm"
                            + (busy ? " (started after " + EngineCommand.format(BUSY) + " without a quiet moment)" : ""));
                } catch (IOException | RuntimeException e) {
                    log.accept("no engine with the 8-lane kernels started: " + e.getMessage());
                }
            }
        });
    }

    /** This engine stops: where that is not the hand-over, its successor ends too (and none starts). */
    synchronized void stopping() {
        stopped = true;
        Process p = successor;
        if (p != null && !handedOver) {
            p.destroy();
        }
    }

    /** The status line about the successor, where one runs. */
    Optional<String> statusLine() {
        Process p = successor;
        return p != null && p.isAlive()
                ? Optional.of("successor  pid " + p.pid() + ", with the 8-lane kernels: warming up, takes over once warm")
                : Optional.empty();
    }

    /**
     * Whether {@code args} is this engine's successor's request to hand over ({@code engine hand-over});
     * if so, the stop that follows leaves the successor running.
     */
    boolean handOver(java.util.List<String> args) {
        boolean h = args.equals(java.util.List.of("engine", HAND_OVER)) && successor != null;
        handedOver |= h;
        return h;
    }

    /** The successor's side: an engine started with {@code --succeed <pid>}. */
    static final class Successor {

        private final EngineHome home;
        private final long predecessor;
        private final EngineHome.Endpoint own;
        private final Runnable serve;
        private final Consumer<EngineLock> locked;
        private final Consumer<String> stop;
        private final Consumer<String> log;
        /** Its predecessor was asked to hand over (its end is expected then), and the lock taken. */
        private volatile boolean handingOver;
        private volatile boolean tookOver;

        /**
         * For the engine of {@code home} with the endpoint {@code own}, succeeding the engine of pid
         * {@code predecessor}: {@code serve} starts taking requests, {@code locked} is handed the lock
         * once taken, {@code stop} stops the engine (for the reason given).
         */
        Successor(EngineHome home, long predecessor, EngineHome.Endpoint own, Runnable serve,
                Consumer<EngineLock> locked, Consumer<String> stop, Consumer<String> log) {
            this.home = home;
            this.predecessor = predecessor;
            this.own = own;
            this.serve = serve;
            this.locked = locked;
            this.stop = stop;
            this.log = log;
        }

        /** Stops the engine once its predecessor ends, unless that is the hand-over. */
        void watch() {
            ProcessHandle.of(predecessor).map(ProcessHandle::onExit)
                    .orElse(java.util.concurrent.CompletableFuture.completedFuture(null))
                    .thenRun(() -> {
                        if (!handingOver) {
                            notNeeded("its predecessor (pid " + predecessor + ") stopped before it was warm");
                        }
                    });
        }

        /**
         * The warm-up has ended: where the predecessor still serves the state directory, writes this
         * engine's endpoint and serves, asks the predecessor to hand over, and takes the lock once it is
         * free; otherwise the engine stops.
         */
        void takeOver() {
            Optional<EngineHome.Endpoint> from = home.readEndpoint()
                    .filter(e -> e.pid() == predecessor && EngineClient.alive(predecessor));
            if (from.isEmpty()) {
                notNeeded("its predecessor (pid " + predecessor + ") no longer serves " + home.dir());
                return;
            }
            handingOver = true;
            try {
                home.writeEndpoint(own);
                serve.run();
                EngineClient.handOver(from.get());
                // the system lets it go when the predecessor's process ends, if the predecessor did not before
                Optional<EngineLock> lock = EngineLock.take(home, LOCK_WAIT, () -> EngineClient.alive(predecessor));
                lock = lock.isPresent() ? lock : EngineLock.take(home, Duration.ofSeconds(1), () -> true);
                if (lock.isEmpty()) {
                    notNeeded("another engine holds " + home.dir());
                    return;
                }
                locked.accept(lock.get());
                tookOver = true;
                log.accept("took over from pid " + predecessor);
            } catch (IOException | InterruptedException e) {
                notNeeded("not taken over: " + e);
            }
        }

        private void notNeeded(String why) {
            if (!tookOver) {
                Thread.ofVirtual().name("engine-not-needed").start(() -> stop.accept(why));
            }
        }
    }
}
