package dev.proofline.cli;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * What the local engine does for itself (its warm-up, building the keys' precomputed tables), kept
 * out of the way of the work it does for people: it runs on a pool of its own whose threads have the
 * lowest CPU priority (nice 19), so that a one-off {@code proofline} process or any other program
 * gets the cores first, and it waits at each of its steps ({@link #awaitTurn}) while a request runs in
 * the engine, a one-off command of the same state directory runs in a process of its own, or other
 * programs keep the processors busy.
 *
 * <p>A one-off command says it runs by holding a shared lock on {@link EngineHome#clientsLockFile()}
 * for its life ({@link #holdClientLock}); the engine asks for an exclusive one, which it gets only
 * when no such process runs, and lets it go at once.
 */
final class Housekeeping implements AutoCloseable {

    /** How often a waiting step looks again. */
    private static final long POLL_MS = 20;

    private final AtomicInteger requests = new AtomicInteger();
    /** Requests started in the engine since it started. */
    private final AtomicLong started = new AtomicLong();
    private final Path clientsLock;
    private final ForkJoinPool pool;

    /** Whether steps wait while other programs keep the processors busy ({@link #othersBusy}). */
    private final boolean yieldToOthers;
    /** A process whose processor time counts as this one's, not as other programs' (0: none). */
    private final long alsoOwn;

    Housekeeping(EngineHome home) {
        this(home, true, 0);
    }

    /** As {@link #Housekeeping(EngineHome)}; without {@code yieldToOthers}, steps wait for requests and one-off commands only. */
    Housekeeping(EngineHome home, boolean yieldToOthers) {
        this(home, yieldToOthers, 0);
    }

    /**
     * As {@link #Housekeeping(EngineHome, boolean)}, with the processor time of the process {@code alsoOwn}
     * (0: none) counted as the engine's own: an engine's successor ({@link Succession}) does not wait for the
     * engine whose requests it is warming up to take.
     */
    Housekeeping(EngineHome home, boolean yieldToOthers, long alsoOwn) {
        this.yieldToOthers = yieldToOthers;
        this.alsoOwn = alsoOwn;
        this.clientsLock = home.clientsLockFile();
        this.pool = new ForkJoinPool(Runtime.getRuntime().availableProcessors(), p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("engine-housekeeping-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, false);
    }

    /** Runs {@code work} on the housekeeping pool (its kernels' parallel tasks stay on it), lowest priority. */
    void submit(Runnable work) {
        pool.execute(() -> {
            lowerPriority();
            work.run();
        });
    }

    /** A request starts in the engine: housekeeping waits until it ends ({@link #requestEnded}). */
    void requestStarted() {
        requests.incrementAndGet();
        started.incrementAndGet();
    }

    void requestEnded() {
        requests.decrementAndGet();
    }

    /** Requests running in the engine now. */
    int requestsRunning() {
        return requests.get();
    }

    /**
     * Returns once no request runs in the engine and no one-off command of this state directory runs;
     * a housekeeping step calls it before it starts. Lowers the calling thread's priority too, for the
     * pool's threads that were started before the step.
     */
    void awaitTurn() {
        await(true);
    }

    /**
     * As {@link #awaitTurn}, but without waiting for other programs: returns once no request runs in the
     * engine and no one-off command of this state directory runs, whatever else keeps the processors busy.
     */
    void awaitOwnTurn() {
        await(() -> false);
    }

    /**
     * As {@link #awaitTurn} while {@code ownTurnSuffices} is false, as {@link #awaitOwnTurn} once it is
     * true: a step that yields to other programs until the engine's requests need it done.
     */
    void awaitTurnUnless(BooleanSupplier ownTurnSuffices) {
        await(() -> !ownTurnSuffices.getAsBoolean());
    }

    private void await(boolean forOthers) {
        await(() -> forOthers);
    }

    /**
     * As {@link #awaitTurn}, and then until it has been the engine's turn for {@code quiet} without a
     * break: for a step that takes the cores for a while at once (a JVM's start), which a program run in
     * a loop beside the engine's requests would otherwise meet in one of its short gaps. On a machine that
     * never falls quiet so long, it goes on once {@code busy} has passed and at least {@code requests}
     * requests have started in the engine meanwhile (the step is then worth its cost to them), at the
     * end of a request. Whether the machine fell quiet (false: it went on for being busy, or was interrupted).
     */
    boolean awaitQuiet(Duration quiet, Duration busy, int requests) {
        lowerPriority();
        long start = System.nanoTime();
        long startedBefore = started.get();
        long since = start;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long now = System.nanoTime();
                if (!turn(() -> true)) {
                    since = now;
                } else if (now - since >= quiet.toNanos()) {
                    return true;
                }
                if (now - start >= busy.toNanos() && started.get() - startedBefore >= requests) {
                    awaitOwnTurn();
                    return false;
                }
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** Waits for the turn; whether it had to. */
    private boolean await(BooleanSupplier forOthers) {
        lowerPriority();
        boolean waited = false;
        try {
            while (!turn(forOthers)) {
                waited = true;
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return waited;
    }

    /** Whether it is housekeeping's turn now: no request, no one-off command, and (if asked) others not busy. */
    private boolean turn(BooleanSupplier forOthers) throws InterruptedException {
        return requests.get() == 0 && !oneOffRunning()
                && !(forOthers.getAsBoolean() && yieldToOthers && stillYielding() && othersBusy());
    }

    /**
     * Other programs' share of one core above which housekeeping waits. A low priority alone was not
     * enough: rapidsnark, run beside an engine that built tables at nice 19, took twice its time (its
     * threads meet at barriers, and a thread kept waiting for a time slice holds up the others).
     */
    private static final double OTHERS_BUSY_CORES = 0.3;
    /**
     * Time, in all, that housekeeping waits for other programs: on a machine that something else keeps
     * busy all the time it then goes on (still at the lowest priority, still waiting for requests), so
     * that the warm-up and the tables are done at last.
     */
    private static final long MAX_YIELD_TO_OTHERS_NANOS = 120_000_000_000L;
    private final AtomicLong yieldedToOthers = new AtomicLong();

    /** Whether housekeeping still waits for other programs: until it has waited {@link #MAX_YIELD_TO_OTHERS_NANOS} for them. */
    private boolean stillYielding() {
        return yieldedToOthers.get() < MAX_YIELD_TO_OTHERS_NANOS;
    }

    /** A sample of the machine's CPU time older than this is taken again with a short window. */
    private static final long SAMPLE_MS = 100;

    private long sampledAt;
    private long[] lastTicks;
    private boolean othersBusy;

    /**
     * Whether other processes than this one used more than {@link #OTHERS_BUSY_CORES} of a core since the
     * last look (at most {@link #SAMPLE_MS} ago; a look older than that is taken again over a short
     * window), from /proc/stat and /proc/self/stat. False where those cannot be read.
     */
    private synchronized boolean othersBusy() throws InterruptedException {
        long now = System.nanoTime();
        if (lastTicks != null && now - sampledAt < SAMPLE_MS * 1_000_000) {
            return othersBusy;
        }
        if (lastTicks == null || now - sampledAt > 5 * SAMPLE_MS * 1_000_000) {
            lastTicks = cpuTicks();
            sampledAt = System.nanoTime();
            Thread.sleep(SAMPLE_MS / 2);
        }
        long[] ticks = cpuTicks();
        long elapsedNanos = System.nanoTime() - sampledAt;
        // unreadable, or a process counted as this one's ended (its ticks left the sum): no sample this time
        if (ticks == null || lastTicks == null || ticks[1] < lastTicks[1]) {
            lastTicks = ticks;
            sampledAt = System.nanoTime();
            return othersBusy = false;
        }
        double others = (ticks[0] - lastTicks[0]) - (ticks[1] - lastTicks[1]);   // busy ticks not ours
        double windowTicks = elapsedNanos / 1e9 * TICKS_PER_SECOND;
        othersBusy = others > OTHERS_BUSY_CORES * windowTicks;
        if (othersBusy) {
            yieldedToOthers.addAndGet(elapsedNanos);
        }
        lastTicks = ticks;
        sampledAt = System.nanoTime();
        return othersBusy;
    }

    /** The kernel's clock ticks a second (USER_HZ: 100 on Linux's common builds). */
    private static final double TICKS_PER_SECOND = 100;

    /** A process's processor ticks (0 where it has ended). */
    private static long processTicks(String pid) throws IOException {
        Path stat = Path.of("/proc", pid, "stat");
        if (!pid.equals("self") && !java.nio.file.Files.exists(stat)) {
            return 0;
        }
        String[] g = statFields(stat);
        return Long.parseLong(g[11]) + Long.parseLong(g[12]);   // fields 14 and 15: utime, stime
    }

    /**
     * The machine's busy ticks (all CPUs) and this process's with {@link #alsoOwn}'s, or null where /proc
     * cannot be read.
     */
    private long[] cpuTicks() {
        try {
            String cpu = java.nio.file.Files.readAllLines(Path.of("/proc/stat")).getFirst();
            String[] f = cpu.trim().split("\\s+");   // cpu user nice system idle iowait irq softirq steal ...
            long busy = 0;
            for (int i = 1; i <= 8 && i < f.length; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return new long[] {busy, processTicks("self") + (alsoOwn == 0 ? 0 : processTicks(Long.toString(alsoOwn)))};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether a one-off command holds its shared lock on the clients' lock file. */
    private boolean oneOffRunning() {
        // one probe at a time in this process: two steps probing at once would each see the other's
        // exclusive lock as this process's own, and go on
        synchronized (PROBE) {
            // held by this process (a test running a one-off command in the engine's JVM), or unreadable: no
            return Boolean.TRUE.equals(lockedElsewhere(clientsLock));
        }
    }

    private static final Object PROBE = new Object();

    /**
     * Whether another process holds a lock on {@code file} (an exclusive one is tried and let go at
     * once); null where that cannot be told: this process holds one, or the file cannot be opened.
     */
    static Boolean lockedElsewhere(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException | IOException e) {
            return null;
        }
    }

    /**
     * For a one-off command: a shared lock on the clients' lock file of {@code home}, held until the
     * process ends (the OS lets it go then), so that an engine's housekeeping waits meanwhile. Empty
     * where the state directory has no engine folder or the lock cannot be had.
     */
    static Optional<FileLock> holdClientLock(EngineHome home) {
        Path lock = home.clientsLockFile();
        if (!lock.getParent().toFile().isDirectory()) {
            return Optional.empty();
        }
        try {
            FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.READ);
            FileLock held = ch.tryLock(0, Long.MAX_VALUE, true);
            if (held == null) {
                ch.close();
            }
            return Optional.ofNullable(held);
        } catch (IOException | OverlappingFileLockException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    // Linux keeps a nice value per thread; a thread may always lower its own priority.
    private static final int PRIO_PROCESS = 0;
    private static final int LOWEST = 19;
    private static final MethodHandle GETTID = lookup("gettid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    private static final MethodHandle SETPRIORITY = lookup("setpriority",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private static MethodHandle lookup(String name, FunctionDescriptor fd) {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find(name).map(a -> linker.downcallHandle(a, fd)).orElse(null);
    }

    private static final ThreadLocal<Boolean> LOWERED = ThreadLocal.withInitial(() -> false);

    /** Gives the calling thread the lowest CPU priority (where the C library offers it; else nothing). */
    static void lowerPriority() {
        if (LOWERED.get() || GETTID == null || SETPRIORITY == null) {
            return;
        }
        try {
            int tid = (int) GETTID.invokeExact();
            int ignored = (int) SETPRIORITY.invokeExact(PRIO_PROCESS, tid, LOWEST);
        } catch (Throwable t) {
            // left at its priority: it still waits for requests
        }
        LOWERED.set(true);
    }

    /**
     * The fields of a /proc {@code stat} file from the third (the state) on: index i holds field i + 3
     * (the command's name before them may hold spaces).
     */
    private static String[] statFields(Path stat) throws IOException {
        String text = java.nio.file.Files.readString(stat);
        return text.substring(text.lastIndexOf(')') + 2).split(" ");
    }

    /** The calling thread's nice value, from /proc (for tests); empty where there is none. */
    static Optional<Integer> niceOfThisThread() {
        try {
            int tid = (int) GETTID.invokeExact();
            String[] f = statFields(Path.of("/proc/self/task/" + tid + "/stat"));
            return Optional.of(Integer.parseInt(f[16]));   // field 19 of stat: nice
        } catch (Throwable t) {
            return Optional.empty();
        }
    }
}
