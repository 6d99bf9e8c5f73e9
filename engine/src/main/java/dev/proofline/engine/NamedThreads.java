package dev.proofline.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread factories for the engine's stages, so a thread dump names the stage each thread serves. */
final class NamedThreads {

    private NamedThreads() {
    }

    /** Daemon platform threads named prefix-0, prefix-1, ... (stackBytes 0: the default stack). */
    static ThreadFactory daemons(String prefix, long stackBytes) {
        AtomicInteger n = new AtomicInteger();
        return r -> Thread.ofPlatform().name(prefix + "-" + n.getAndIncrement()).daemon().stackSize(stackBytes)
                .unstarted(r);
    }
}
