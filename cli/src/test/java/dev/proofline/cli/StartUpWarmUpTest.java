package dev.proofline.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class StartUpWarmUpTest {

    /** Only a proving command starts it; it runs until its command begins, then stops after its step. */
    @Test
    void aProvingCommandStartsItAndItStopsWhenTheCommandBegins() throws InterruptedException {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "the warm-up runs only with a core to spare");
        StartUpWarmUp.begin(new String[] {"verify", "vk.json", "public.json", "proof.json"});
        assertNull(StartUpWarmUp.thread(), "verify starts no warm-up");
        StartUpWarmUp.begin(new String[] {"prove", "c.zkey", "c.wtns", "proof.json", "public.json"});
        Thread t = StartUpWarmUp.thread();
        assertNotNull(t);
        Thread.sleep(200);
        StartUpWarmUp.end();
        t.join(60_000);
        assertFalse(t.isAlive(), "the warm-up went on after end()");
    }
}
