package dev.proofline.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * An engine's hold on its state directory: an exclusive lock on {@link EngineHome#lockFile}, which one
 * engine (process) at a time has; the operating system lets it go when the process ends.
 */
final class EngineLock implements AutoCloseable {

    /** How often {@link #take} tries again while it waits. */
    private static final long POLL_MS = 5;

    private final FileChannel channel;
    private final FileLock lock;

    private EngineLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code home} if no engine holds it; empty if one does. */
    static Optional<EngineLock> take(EngineHome home) throws IOException {
        try {
            return take(home, Duration.ZERO, () -> false);
        } catch (InterruptedException e) {   // not waiting, it never sleeps
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * Takes the lock of {@code home}, waiting at most {@code wait}, and only while {@code worthWaiting}
     * holds, for the engine that holds it to let it go; empty if it is still held then.
     */
    static Optional<EngineLock> take(EngineHome home, Duration wait, BooleanSupplier worthWaiting)
            throws IOException, InterruptedException {
        home.createEngineDir();
        FileChannel ch = FileChannel.open(home.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            while (true) {
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null;   // held in this process
                }
                if (lock != null) {
                    return Optional.of(new EngineLock(ch, lock));
                }
                if (System.nanoTime() - deadline >= 0 || !worthWaiting.getAsBoolean()) {
                    ch.close();
                    return Optional.empty();
                }
                Thread.sleep(POLL_MS);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // the process is ending, or the test that started this engine: the OS releases it
        }
    }
}
