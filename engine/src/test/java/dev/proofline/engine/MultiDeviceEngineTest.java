package dev.proofline.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * A backend with two devices: both serve the one prover queue, each under its own lock (one start on
 * a device at a time), with {@code proverWorkers} workers each; a partition starts on the device it
 * was prepared for; busy time, runs and memory are reported per device.
 */
class MultiDeviceEngineTest {

    /** Two simulated devices that check the engine's promises as they run. */
    static final class TwoDevices implements ProverBackend<Object, Object, String> {
        final AtomicIntegerArray inside = new AtomicIntegerArray(2);
        final AtomicIntegerArray maxInside = new AtomicIntegerArray(2);
        final AtomicIntegerArray starts = new AtomicIntegerArray(2);
        final AtomicIntegerArray prepares = new AtomicIntegerArray(2);
        final AtomicInteger wrongDevice = new AtomicInteger();
        final AtomicBoolean bothAtOnce = new AtomicBoolean();
        /** The first start on each device waits for one on the other: the devices run side by side. */
        final CountDownLatch firstOnEach = new CountDownLatch(2);
        final AtomicIntegerArray first = new AtomicIntegerArray(2);

        record Prepared(Object payload, int device) {
        }

        @Override
        public String name() {
            return "two";
        }

        @Override
        public List<String> devices() {
            return List.of("sim:0", "sim:1");
        }

        @Override
        public int deviceCount() {
            return 2;
        }

        @Override
        public List<DeviceMemory> deviceMemory() {
            return List.of(new DeviceMemory(8L << 30, 7L << 30, 1L << 20, 1), new DeviceMemory(4L << 30, 4L << 30, 0, 0));
        }

        @Override
        public Object prepare(Object synthesized, int device) {
            prepares.incrementAndGet(device);
            return new Prepared(synthesized, device);
        }

        @Override
        public Object start(Object prepared, int device) throws Exception {
            Prepared p = (Prepared) prepared;
            if (p.device() != device) {
                wrongDevice.incrementAndGet();
            }
            int now = inside.incrementAndGet(device);
            maxInside.accumulateAndGet(device, now, Math::max);
            if (inside.get(1 - device) > 0) {
                bothAtOnce.set(true);
            }
            try {
                if (first.compareAndSet(device, 0, 1)) {
                    firstOnEach.countDown();
                    firstOnEach.await(10, TimeUnit.SECONDS);
                }
                Thread.sleep(15);
                starts.incrementAndGet(device);
                return p.payload();
            } finally {
                inside.decrementAndGet(device);
            }
        }

        @Override
        public String finish(Object started) {
            return "proof-" + started;
        }
    }

    @Test
    void bothDevicesServeTheQueueEachUnderItsOwnLock() throws Exception {
        TwoDevices backend = new TwoDevices();
        int partitions = 24;
        EngineConfig cfg = EngineConfig.builder().permits(8).synthesisThreads(2).proverWorkers(2).finalizerThreads(2)
                .budgetBytes(1L << 30).timelineCapacity(10_000).build();
        try (var e = new Engine<>(cfg, backend)) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            e.bindMetrics(registry);
            assertEquals(2, e.deviceCount());
            var proofs = e.submit(new SimBackend.Job(partitions, 1, 1 << 16, p -> false), Priority.NORMAL)
                    .await(java.time.Duration.ofSeconds(60));
            List<String> expected = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                expected.add("proof-" + p);
            }
            assertEquals(expected, proofs, "every partition proved, in order");
            assertEquals(0, backend.wrongDevice.get(), "each start on the device its partition was prepared for");
            for (int d = 0; d < 2; d++) {
                assertEquals(1, backend.maxInside.get(d), "device " + d + ": one start at a time under its lock");
                assertTrue(backend.starts.get(d) > 0, "device " + d + " proved partitions");
            }
            assertEquals(partitions, backend.starts.get(0) + backend.starts.get(1));
            assertEquals(0, backend.firstOnEach.getCount(), "both devices started");
            assertTrue(backend.bothAtOnce.get(), "the devices ran side by side");
            // the timeline says where each partition ran
            Set<String> where = new HashSet<>();
            for (Timeline.Event ev : e.timeline().snapshot()) {
                if (ev.kind() == Timeline.Kind.PROVER_START) {
                    where.add(ev.detail());
                }
            }
            assertEquals(Set.of("device 0", "device 1"), where);
            EngineStatus s = e.status();
            assertEquals(2, s.deviceStatus().size());
            for (int d = 0; d < 2; d++) {
                EngineStatus.Device dev = s.deviceStatus().get(d);
                assertEquals(d, dev.index());
                assertEquals("sim:" + d, dev.name());
                assertEquals(backend.starts.get(d), dev.proverRuns(), "runs of device " + d);
                assertTrue(dev.busyLastMinute() > 0 && dev.busyLastMinute() <= 1, "busy " + dev.busyLastMinute());
            }
            assertEquals(8L << 30, s.deviceStatus().get(0).memoryTotalBytes());
            assertEquals(7L << 30, s.deviceStatus().get(0).memoryFreeBytes());
            assertEquals(1L << 20, s.deviceStatus().get(0).residentKeyBytes());
            assertEquals(1, s.deviceStatus().get(0).residentKeys());
            double mean = (e.proverBusyLastMinute(0) + e.proverBusyLastMinute(1)) / 2;
            assertEquals(mean, s.proverBusyLastMinute(), 0.05, "the engine's busy fraction is the devices' mean");
            assertNotNull(registry.find("proofline.device.busy").tag("device", "1").gauge(), "a busy gauge per device");
        }
    }

    @Test
    void oneDeviceBackendsKeepTheirSingleLockAndPlainTimeline() throws Exception {
        EngineConfig cfg = EngineConfig.builder().permits(2).synthesisThreads(2).proverWorkers(2).finalizerThreads(2)
                .budgetBytes(1L << 30).timelineCapacity(10_000).build();
        try (var e = new Engine<>(cfg, new SimBackend(2, 0, x -> false))) {
            e.submit(new SimBackend.Job(4, 1, 1 << 16, p -> false), Priority.NORMAL).await(java.time.Duration.ofSeconds(30));
            assertEquals(1, e.deviceCount());
            EngineStatus s = e.status();
            assertEquals(1, s.deviceStatus().size());
            assertEquals(4, s.deviceStatus().get(0).proverRuns());
            assertEquals(-1, s.deviceStatus().get(0).memoryTotalBytes(), "no device memory on a simulated device");
            for (Timeline.Event ev : e.timeline().snapshot()) {
                if (ev.kind() == Timeline.Kind.PROVER_START) {
                    assertEquals("", ev.detail());
                }
            }
        }
    }
}
