package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local engine's own background work waits while a request runs in the engine, while a one-off
 * command runs in a process of its own and while other programs keep the processors busy, and runs at
 * the lowest CPU priority.
 */
class HousekeepingTest {

    @TempDir
    Path tmp;

    @Test
    void aStepWaitsWhileARequestRunsAndRunsAtTheLowestPriority() throws Exception {
        EngineHome home = home();
        try (Housekeeping h = new Housekeeping(home, false)) {
            h.requestStarted();
            CompletableFuture<Optional<Integer>> step = new CompletableFuture<>();
            h.submit(() -> {
                h.awaitTurn();
                step.complete(Housekeeping.niceOfThisThread());
            });
            Thread.sleep(500);
            assertFalse(step.isDone(), "waits while the request runs");
            h.requestEnded();
            Optional<Integer> nice = step.get(30, TimeUnit.SECONDS);
            if (Files.isDirectory(Path.of("/proc/self/task"))) {
                assertEquals(Optional.of(19), nice, "the lowest priority");
            }
        }
    }

    @Test
    void aStepWaitsWhileAOneOffCommandRunsBesideTheEngine() throws Exception {
        EngineHome home = home();
        // another process, as a one-off command is: it holds the clients' lock until its input closes
        Process oneOff = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HoldClientLock.class.getName(), home.dir().toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (Housekeeping h = new Housekeeping(home, false)) {
            assertEquals('L', oneOff.getInputStream().read(), "the lock is held");
            CompletableFuture<Void> step = step(h, h::awaitTurn);
            CompletableFuture<Void> own = step(h, h::awaitOwnTurn);
            Thread.sleep(500);
            assertFalse(step.isDone(), "waits while the one-off command runs");
            assertFalse(own.isDone(), "a step that does not wait for other programs still waits for it");
            oneOff.getOutputStream().close();
            assertTrue(oneOff.waitFor(30, TimeUnit.SECONDS));
            step.get(30, TimeUnit.SECONDS);
            own.get(30, TimeUnit.SECONDS);
        } finally {
            oneOff.destroyForcibly();
        }
    }

    @Test
    void aStepWaitsWhileAnotherProgramKeepsAProcessorBusy() throws Exception {
        if (!Files.isReadable(Path.of("/proc/stat"))) {
            return;   // nothing to watch the machine with: steps do not wait for others there
        }
        EngineHome home = home();
        Process busy = spin();
        try (Housekeeping h = new Housekeeping(home, true)) {
            CompletableFuture<Void> step = step(h, h::awaitTurn);
            CompletableFuture<Void> own = step(h, h::awaitOwnTurn);
            // a step that waits for others until its work is wanted (the kernels' warm-up, for a large key)
            AtomicBoolean wanted = new AtomicBoolean();
            CompletableFuture<Void> unless = step(h, () -> h.awaitTurnUnless(wanted::get));
            own.get(30, TimeUnit.SECONDS);   // a step that waits for requests and one-off commands only goes on
            Thread.sleep(1_000);
            assertFalse(step.isDone(), "waits while another program keeps a processor busy");
            assertFalse(unless.isDone(), "waits for other programs while its work is not wanted");
            wanted.set(true);
            unless.get(30, TimeUnit.SECONDS);   // then goes on, the other program still running
            assertFalse(step.isDone(), "the other step still waits");
            busy.destroyForcibly();
            // at the latest once it has waited for others as long as it ever does (a machine kept busy by
            // yet other programs)
            step.get(3, TimeUnit.MINUTES);
        } finally {
            busy.destroyForcibly();
        }
    }

    @Test
    void aStepWaitingForAQuietMomentGoesOnWhenRequestsKeepTheEngineBusyLongEnough() throws Exception {
        EngineHome home = home();
        try (Housekeeping h = new Housekeeping(home, false)) {
            CompletableFuture<Boolean> quiet = new CompletableFuture<>();
            h.submit(() -> quiet.complete(h.awaitQuiet(java.time.Duration.ofMillis(300), java.time.Duration.ofHours(1), 1)));
            assertTrue(quiet.get(30, TimeUnit.SECONDS), "a quiet moment");

            // requests one after the other with short gaps: never quiet for a second
            AtomicBoolean serving = new AtomicBoolean(true);
            java.util.concurrent.atomic.AtomicInteger served = new java.util.concurrent.atomic.AtomicInteger();
            Thread loop = Thread.ofPlatform().start(() -> {
                while (serving.get()) {
                    h.requestStarted();
                    served.incrementAndGet();
                    sleep(100);
                    h.requestEnded();
                    sleep(10);
                }
            });
            CompletableFuture<Integer> busy = new CompletableFuture<>();
            h.submit(() -> {
                boolean fellQuiet = h.awaitQuiet(java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(500), 8);
                busy.complete(fellQuiet ? -1 : served.get());
            });
            int servedBy = busy.get(30, TimeUnit.SECONDS);
            serving.set(false);
            loop.join();
            assertTrue(servedBy >= 8, "went on after the requests it asks for, not for a quiet moment: " + servedBy);
        }
    }

    @Test
    void aSuccessorsStepDoesNotWaitForTheEngineItSucceeds() throws Exception {
        if (!Files.isReadable(Path.of("/proc/stat"))) {
            return;   // nothing to watch the machine with: steps do not wait for others there
        }
        EngineHome home = home();
        Process predecessor = spin();
        try (Housekeeping h = new Housekeeping(home, true, predecessor.pid())) {
            CompletableFuture<Void> step = step(h, h::awaitTurn);
            // well before it would go on for having waited for other programs as long as it ever does
            step.get(60, TimeUnit.SECONDS);
        } finally {
            predecessor.destroyForcibly();
        }
    }

    /** A housekeeping step that waits with {@code await}; done once it goes on. */
    private static CompletableFuture<Void> step(Housekeeping h, Runnable await) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        h.submit(() -> {
            await.run();
            done.complete(null);
        });
        return done;
    }

    /** A state directory with its engine folder. */
    private EngineHome home() throws IOException {
        EngineHome home = new EngineHome(tmp.resolve("home"));
        home.createEngineDir();
        return home;
    }

    /** Another program that keeps a processor busy until destroyed. */
    private static Process spin() throws IOException {
        return new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A process that holds the clients' lock of the state directory in its argument until its input closes. */
    public static final class HoldClientLock {
        public static void main(String[] args) throws IOException {
            Optional<java.nio.channels.FileLock> lock = Housekeeping.holdClientLock(new EngineHome(Path.of(args[0])));
            if (lock.isEmpty()) {
                System.exit(1);
            }
            System.out.write('L');
            System.out.flush();
            System.in.readAllBytes();
            java.lang.ref.Reference.reachabilityFence(lock);
        }
    }
}
