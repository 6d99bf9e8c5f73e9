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
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the local engine does for itself (its warm-up, building the keys' precomputed tables), kept
 * out of the way of the work it does for people: it runs on a pool of its own whose threads have the
 * lowest CPU priority (nice 19), so that a one-off {@code proofline} process or any other program
 * gets the cores first, and it waits at each of its steps ({@link #awaitTurn}) while a request runs in
 * the engine or a one-off command of the same state directory runs in a process of its own.
 *
 * <p>A one-off command says it runs by holding a shared lock on {@link EngineHome#clientsLockFile()}
 * for its life ({@link #holdClientLock}); the engine asks for an exclusive one, which it gets only
 * when no such process runs, and lets it go at once.
 */
final class Housekeeping implements AutoCloseable {

    /** How often a waiting step looks again. */
    private static final long POLL_MS = 20;

    private final AtomicInteger requests = new AtomicInteger();
    private final Path clientsLock;
    private final ForkJoinPool pool;

    Housekeeping(EngineHome home) {
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
        lowerPriority();
        try {
            while (requests.get() > 0 || oneOffRunning()) {
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a one-off command holds its shared lock on the clients' lock file. */
    private boolean oneOffRunning() {
        try (FileChannel ch = FileChannel.open(clientsLock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return false;   // held by this process (a test running a one-off command in the engine's JVM)
        } catch (IOException e) {
            return false;
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

    /** The calling thread's nice value, from /proc (for tests); empty where there is none. */
    static Optional<Integer> niceOfThisThread() {
        try {
            int tid = (int) GETTID.invokeExact();
            String stat = java.nio.file.Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(Integer.parseInt(f[16]));   // field 19 of stat: nice
        } catch (Throwable t) {
            return Optional.empty();
        }
    }
}
