package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BufferPool;
import dev.proofline.engine.Engine;
import dev.proofline.engine.EngineConfig;
import dev.proofline.engine.EngineStatus;
import dev.proofline.engine.MemoryBudget;
import dev.proofline.engine.Priority;
import dev.proofline.engine.Timeline;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.engine.groth16.DeviceBackendAdapter;
import dev.proofline.engine.groth16.ProofResult;
import dev.proofline.groth16.Proof;
import dev.proofline.groth16.ProofRandomness;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.io.ZkeyFile;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.R1cs;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.circuits.MerklePost;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.WitnessSystem;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA backend end to end on the fake driver, whose two devices run the MSM and NTT kernels'
 * bodies on the host: both devices serve the engine's one queue (each under its own lock: never two
 * kernels on one device at once), the pool's buffers are the driver's page-locked memory, a, b, c and
 * the witness reach each device by async copies on a copy stream that the NTT and MSM streams wait for
 * (for a key proved from its coefficients only the witness, a, b, c then computed on the device)
 * (the fake does a stream's copies only when another stream's work waits for them, so a missing wait
 * gives a wrong proof), and the proofs equal the CPU prover's for the same r and s. Also which devices
 * the backend takes, and what the status shows of them.
 */
class FakeCudaBackendTest {

    private static final byte[] IMAGE = "fake kernels".getBytes(StandardCharsets.US_ASCII);
    private static final ProofRandomness RS = ProofRandomness.fixedForTesting(BigInteger.valueOf(31337),
            BigInteger.valueOf(4242));

    @TempDir
    Path tmp;

    private FakeCuda fake;
    private String libraryBefore;

    @BeforeEach
    void fakeDriver() {
        fake = FakeCuda.get();
        fake.reset();
        libraryBefore = System.getProperty(CudaDriver.LIBRARY_PROPERTY);
        System.setProperty(CudaDriver.LIBRARY_PROPERTY, fake.library().toString());
    }

    @AfterEach
    void restore() {
        fake.reset();
        if (libraryBefore == null) {
            System.clearProperty(CudaDriver.LIBRARY_PROPERTY);
        } else {
            System.setProperty(CudaDriver.LIBRARY_PROPERTY, libraryBefore);
        }
    }

    @Test
    void bothDevicesProveFromPinnedBuffersAndTheProofsEqualTheCpus() throws Exception {
        fake.loadTestKernels();
        fake.setComputeCapability(1, 9, 0);
        PairingCurve curve = PairingCurve.BN254;
        List<MerklePost> instances = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            instances.add(MerklePost.instance(curve, 2, 5, 100 + i));
        }
        R1cs r1cs = RecordingSystem.record(curve, instances.get(0));
        Path zkey = tmp.resolve("mp.zkey");
        DevSetup.run(r1cs, zkey, new Random(5));
        List<String> why = new ArrayList<>();
        long pinnedBefore = fake.livePinnedBytes();
        long unrecordedBefore = fake.waitsOnUnrecordedEvents();
        long[] launchesBefore = {fake.deviceLaunches(0), fake.deviceLaunches(1)};
        CudaBackend gpu = CudaBackend.open(List.of(), IMAGE, why::add)
                .orElseThrow(() -> new AssertionError("unavailable: " + why));
        try (gpu; ProvingKey key = ZkeyFile.open(zkey)) {
            assertEquals(2, gpu.deviceCount(), "both devices, now that both are compute 9.0");
            assertEquals(BufferPool.Memory.PINNED, gpu.bufferMemory());
            List<ProofResult> proofs;
            List<ProofResult> viaCoefficients;
            long pinnedWithoutPool;
            EngineConfig cfg = EngineConfig.builder().permits(4).synthesisThreads(2).proverWorkers(2)
                    .finalizerThreads(2).budgetBytes(1L << 32).timelineCapacity(10_000).build();
            try (var e = new Engine<>(cfg, DeviceBackendAdapter.of(gpu, Prover.create().withRandomness(RS)))) {
                assertEquals(2, e.deviceCount());
                // a Java circuit (which has a PCE), and a circom registration without an r1cs, given the
                // witnesses: a, b, c of both from the key's coefficients, on the devices
                Circuits.of(e).register(new Circuits.Java("mp", zkey, curve, instances.get(0)));
                Circuits.of(e).register(new Circuits.Circom("mp-coefficients", zkey));
                List<CircuitJob.Partition> parts = new ArrayList<>();
                List<CircuitJob.Partition> values = new ArrayList<>();
                for (MerklePost m : instances) {
                    parts.add(new CircuitJob.Instance(m));
                    values.add(new CircuitJob.Values(WitnessSystem.witness(curve, m)));
                }
                proofs = e.submit(new CircuitJob(Circuits.of(e), "mp", parts), Priority.NORMAL)
                        .await(Duration.ofMinutes(5));
                assertEquals(8, gpu.accelerators().stream().mapToLong(GpuAccelerator::abcOnDevice).sum(),
                        "a, b, c of the Java circuit's proofs computed on the devices");
                assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PCE), "its PCE never loaded");
                assertTrue(fake.livePinnedBytes() > pinnedBefore, "the pool's idle buffers are page-locked memory");
                assertEquals(e.pool().stats().idleBytes(), e.budget().reserved(MemoryBudget.Kind.POOL),
                        "idle pinned buffers counted once, by the pool");
                assertEquals(0, e.budget().reserved(MemoryBudget.Kind.PARTITION));

                Set<String> where = new HashSet<>();
                for (Timeline.Event ev : e.timeline().snapshot()) {
                    if (ev.kind() == Timeline.Kind.PROVER_START) {
                        where.add(ev.detail());
                    }
                }
                assertEquals(Set.of("device 0", "device 1"), where, "partitions on both devices");
                EngineStatus s = e.status();
                assertEquals(2, s.devices().size());
                assertTrue(s.devices().get(0).startsWith("cuda:0 Proofline Fake GPU A, compute capability 9.0, 132 SMs, "
                        + "memory "), s.devices().get(0));
                assertTrue(s.devices().get(0).contains(" used of 8.0 GiB ("), s.devices().get(0));
                assertTrue(s.devices().get(1).startsWith("cuda:1 Proofline Fake GPU B"), s.devices().get(1));
                assertTrue(s.devices().get(1).contains(" used of 4.0 GiB (") && s.devices().get(1).contains(", 1 key resident ("),
                        s.devices().get(1));
                assertTrue(s.devices().get(1).endsWith(": mp.zkey " + CudaBackend.size(
                        gpu.accelerators().get(1).residentBytes()) + ")"), "the key's footprint: " + s.devices().get(1));
                for (int d = 0; d < 2; d++) {
                    EngineStatus.Device dev = s.deviceStatus().get(d);
                    assertEquals(d == 0 ? 8L << 30 : 4L << 30, dev.memoryTotalBytes());
                    assertEquals(dev.memoryTotalBytes() - fake.deviceUsed(d), dev.memoryFreeBytes(), "free on " + d);
                    assertEquals(1, dev.residentKeys(), "the key resident on device " + d);
                    assertEquals(gpu.accelerators().get(d).residentBytes(), dev.residentKeyBytes());
                    assertTrue(dev.residentKeyBytes() > 0 && dev.residentKeyBytes() <= fake.deviceUsed(d));
                    assertTrue(dev.proverRuns() > 0);
                    assertEquals(1, gpu.accelerators().get(d).uploads(), "device " + d + " uploaded the key's points once");
                }
                viaCoefficients = e.submit(new CircuitJob(Circuits.of(e), "mp-coefficients", values.subList(0, 3)),
                        Priority.NORMAL).await(Duration.ofMinutes(5));
                assertEquals(11, gpu.accelerators().stream().mapToLong(GpuAccelerator::abcOnDevice).sum(),
                        "a, b, c of the circom registration's proofs computed on the devices too");
                long pointBytes = residentPointBytes(key, true); // B2 too: B in G2 on the device by default
                for (GpuAccelerator acc : gpu.accelerators()) {
                    // the two registrations' keys (one file opened twice) resident where they were proved,
                    // each with its points and its coefficients
                    assertEquals(acc.residentKeys() * (pointBytes + CudaCoefficients.deviceBytes(key)),
                            acc.residentBytes());
                }
                pinnedWithoutPool = fake.livePinnedBytes() - e.pool().stats().idleBytes();
            }
            assertEquals(pinnedWithoutPool, fake.livePinnedBytes(), "the pool's pinned buffers freed with the engine");
            for (int d = 0; d < 2; d++) {
                assertTrue(fake.deviceLaunches(d) > launchesBefore[d], "kernels ran on device " + d);
                assertEquals(1, fake.mostRunningOn(d), "one kernel at a time on device " + d);
            }
            assertEquals(unrecordedBefore, fake.waitsOnUnrecordedEvents(), "every wait was on a recorded event");
            Prover cpu = Prover.create().withRandomness(RS);
            for (int p = 0; p < instances.size(); p++) {
                Witness w = WitnessSystem.witness(curve, instances.get(p));
                Proof expected = cpu.prove(key, w);
                Proof actual = proofs.get(p).proof();
                assertArrayEquals(expected.a(), actual.a(), "partition " + p);
                assertArrayEquals(expected.b(), actual.b(), "partition " + p);
                assertArrayEquals(expected.c(), actual.c(), "partition " + p);
                if (p < viaCoefficients.size()) {
                    Proof c = viaCoefficients.get(p).proof();
                    assertArrayEquals(expected.a(), c.a(), "from the coefficients, partition " + p);
                    assertArrayEquals(expected.c(), c.c(), "from the coefficients, partition " + p);
                }
            }
        }
        assertEquals(pinnedBefore, fake.livePinnedBytes(), "the backend's own staging freed with it");
        assertEquals(0, fake.primaryRefs(0));
        assertEquals(0, fake.primaryRefs(1));
    }

    /**
     * Two lanes on one device: the engine serves each as a device (its own workers and lock), the key is
     * uploaded once for both (the device's resident keys are shared), partitions run on both, and the
     * proofs equal the CPU prover's.
     */
    @Test
    void twoLanesOnOneDeviceEachProveAndTheProofsEqualTheCpus() throws Exception {
        fake.loadTestKernels();
        PairingCurve curve = PairingCurve.BN254;
        List<MerklePost> instances = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            instances.add(MerklePost.instance(curve, 2, 4, 300 + i));
        }
        Path zkey = tmp.resolve("lanes.zkey");
        DevSetup.run(RecordingSystem.record(curve, instances.get(0)), zkey, new Random(7));
        List<String> why = new ArrayList<>();
        BackendSettings settings = BackendSettings.builder().devices(0).lanesPerDevice(2)
                .driverLibrary(fake.library().toString()).build();
        CudaBackend gpu = CudaBackend.open(settings, IMAGE, why::add)
                .orElseThrow(() -> new AssertionError("unavailable: " + why));
        List<ProofResult> proofs;
        try (gpu; ProvingKey key = ZkeyFile.open(zkey)) {
            assertEquals(2, gpu.deviceCount());
            assertEquals(1, gpu.gpus().size());
            EngineConfig cfg = EngineConfig.builder().permits(6).synthesisThreads(2).proverWorkers(1)
                    .finalizerThreads(2).budgetBytes(1L << 32).timelineCapacity(10_000).build();
            try (var e = new Engine<>(cfg, DeviceBackendAdapter.of(gpu, Prover.create().withRandomness(RS)))) {
                assertEquals(2, e.deviceCount(), "each lane a device of the engine's");
                Circuits.of(e).register(new Circuits.Circom("lanes", zkey));
                List<CircuitJob.Partition> values = new ArrayList<>();
                for (MerklePost m : instances) {
                    values.add(new CircuitJob.Values(WitnessSystem.witness(curve, m)));
                }
                proofs = e.submit(new CircuitJob(Circuits.of(e), "lanes", values), Priority.NORMAL)
                        .await(Duration.ofMinutes(5));
                Set<String> where = new HashSet<>();
                for (Timeline.Event ev : e.timeline().snapshot()) {
                    if (ev.kind() == Timeline.Kind.PROVER_START) {
                        where.add(ev.detail());
                    }
                }
                assertEquals(Set.of("device 0", "device 1"), where, "partitions on both lanes");
                List<String> lines = e.status().devices();
                assertTrue(lines.get(0).startsWith("cuda:0 lane 0 Proofline Fake GPU A,"), lines.get(0));
                assertTrue(lines.get(1).startsWith("cuda:0 lane 1 Proofline Fake GPU A,"), lines.get(1));
                long keyBytes = residentPointBytes(key, true) + CudaCoefficients.deviceBytes(key);
                for (GpuAccelerator acc : gpu.accelerators()) {
                    assertEquals(1, acc.uploads(), "the key uploaded once for both lanes");
                    assertEquals(1, acc.residentKeys());
                    assertEquals(keyBytes, acc.residentBytes(), "one copy of the key's points and coefficients");
                }
                assertTrue(lines.get(0).contains("1 key resident (" + CudaBackend.size(keyBytes)), lines.get(0));
                assertTrue(lines.get(1).contains("1 key resident (" + CudaBackend.size(keyBytes)), lines.get(1));
            }
            Prover cpu = Prover.create().withRandomness(RS);
            for (int p = 0; p < instances.size(); p++) {
                Proof expected = cpu.prove(key, WitnessSystem.witness(curve, instances.get(p)));
                Proof actual = proofs.get(p).proof();
                assertArrayEquals(expected.a(), actual.a(), "partition " + p);
                assertArrayEquals(expected.b(), actual.b(), "partition " + p);
                assertArrayEquals(expected.c(), actual.c(), "partition " + p);
            }
        }
        assertEquals(0, fake.primaryRefs(0), "each lane's hold on the context released");
    }

    /**
     * With {@code proofline.cuda.g2}, B in G2 is computed on the device with the G1 sums (the key's B2
     * points resident too), through the engine's pinned path and the heap path; the proofs equal the CPU's.
     * With {@code proofline.cuda.abc=false} a, b, c come from the CPU: a Java circuit's from its PCE, a key
     * proved from its coefficients from them.
     */
    @Test
    void bInG2OnTheDeviceWhenAskedAndTheProofsEqualTheCpus() throws Exception {
        fake.loadTestKernels();
        PairingCurve curve = PairingCurve.BLS12_381;
        List<MerklePost> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(MerklePost.instance(curve, 2, 4, 200 + i));
        }
        Path zkey = tmp.resolve("g2.zkey");
        DevSetup.run(RecordingSystem.record(curve, instances.get(0)), zkey, new Random(6));
        List<String> why = new ArrayList<>();
        long allocationsBefore = fake.liveDeviceAllocations();
        System.setProperty(CudaBackend.G2_PROPERTY, "true");
        System.setProperty(CudaBackend.ABC_PROPERTY, "false");
        CudaBackend gpu;
        try {
            gpu = CudaBackend.open(List.of(0), IMAGE, why::add)
                    .orElseThrow(() -> new AssertionError("unavailable: " + why));
        } finally {
            System.clearProperty(CudaBackend.G2_PROPERTY);
            System.clearProperty(CudaBackend.ABC_PROPERTY);
        }
        try (gpu; ProvingKey key = ZkeyFile.open(zkey)) {
            GpuAccelerator acc = gpu.accelerators().getFirst();
            assertTrue(acc.g2(), "B in G2 on the device");
            assertFalse(acc.computesAbc(key), "a, b, c on the CPU, as asked");
            List<ProofResult> proofs;
            List<ProofResult> viaCoefficients;
            EngineConfig cfg = EngineConfig.builder().permits(4).synthesisThreads(2).proverWorkers(2)
                    .finalizerThreads(2).budgetBytes(1L << 32).timelineCapacity(10_000).build();
            try (var e = new Engine<>(cfg, DeviceBackendAdapter.of(gpu, Prover.create().withRandomness(RS)))) {
                Circuits.of(e).register(new Circuits.Java("mp", zkey, curve, instances.get(0)));
                Circuits.of(e).register(new Circuits.Circom("mp-coefficients", zkey));
                List<CircuitJob.Partition> parts = new ArrayList<>();
                for (MerklePost m : instances) {
                    parts.add(new CircuitJob.Instance(m));
                }
                proofs = e.submit(new CircuitJob(Circuits.of(e), "mp", parts), Priority.NORMAL)
                        .await(Duration.ofMinutes(5));
                assertTrue(e.budget().reserved(MemoryBudget.Kind.PCE) > 0, "the Java circuit's a, b, c by its PCE");
                viaCoefficients = e.submit(new CircuitJob(Circuits.of(e), "mp-coefficients",
                        List.of(new CircuitJob.Values(WitnessSystem.witness(curve, instances.get(0))))),
                        Priority.NORMAL).await(Duration.ofMinutes(5));
            }
            assertEquals(0, acc.abcOnDevice(), "no a, b, c on the device");
            assertEquals(2, acc.residentKeys(), "the two registrations' keys (one file opened twice)");
            assertEquals(2 * residentPointBytes(key, true), acc.residentBytes(), "the keys' G1 and B2 points resident");
            Prover cpu = Prover.create().withRandomness(RS);
            for (int p = 0; p < instances.size(); p++) {
                Witness w = WitnessSystem.witness(curve, instances.get(p));
                Proof expected = cpu.prove(key, w);
                Proof pinned = proofs.get(p).proof();
                assertArrayEquals(expected.b(), pinned.b(), "B in G2, pinned path, partition " + p);
                assertArrayEquals(expected.a(), pinned.a(), "partition " + p);
                assertArrayEquals(expected.c(), pinned.c(), "partition " + p);
                if (p == 0) {
                    Proof c = viaCoefficients.getFirst().proof();
                    assertArrayEquals(expected.b(), c.b(), "from the coefficients, a, b, c on the CPU");
                    assertArrayEquals(expected.c(), c.c(), "from the coefficients, a, b, c on the CPU");
                }
                Proof heap = AcceleratedProofs.fromHeap(acc, Prover.create().withRandomness(RS), key, w);
                assertArrayEquals(expected.b(), heap.b(), "B in G2, heap path, partition " + p);
                assertArrayEquals(expected.c(), heap.c(), "heap path, partition " + p);
            }
        }
        assertEquals(allocationsBefore, fake.liveDeviceAllocations(),
                "the resident points (B2 with them) and every buffer freed with the backend");
    }

    /**
     * Device bytes of a key's resident points: A, B1, C (and B2 with {@code g2}) without their points at
     * infinity, 4 bytes of index for each point kept where some were left out; H whole.
     */
    static long residentPointBytes(ProvingKey key, boolean g2) {
        PairingCurve curve = key.curve();
        int nVars = key.variableCount();
        int g1 = MsmGroup.g1(curve).affineWords();
        long bytes = withoutInfinity(key.pointsA(), nVars, g1) + withoutInfinity(key.pointsB1(), nVars, g1)
                + withoutInfinity(key.pointsC(), Math.max(1, nVars - key.publicCount() - 1), g1)
                + 8L * g1 * key.domainSize();
        return g2 ? bytes + withoutInfinity(key.pointsB2(), nVars, MsmGroup.g2(curve).affineWords()) : bytes;
    }

    private static long withoutInfinity(java.lang.foreign.MemorySegment points, int count, int words) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            long[] p = points.asSlice(8L * words * i, 8L * words).toArray(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED);
            kept += java.util.Arrays.stream(p).anyMatch(x -> x != 0) ? 1 : 0;
        }
        return 8L * words * kept + (kept < count ? 4L * kept : 0);
    }

    @Test
    void theDevicesItTakesAndWhyNot() {
        List<String> why = new ArrayList<>();
        // by default every usable device: B is compute 8.6
        try (CudaBackend one = CudaBackend.open(List.of(), IMAGE, why::add).orElseThrow()) {
            assertEquals(1, one.deviceCount());
            assertEquals("Proofline Fake GPU A", one.device().name());
            assertEquals(List.of(one.device()), one.gpus());
        }
        assertTrue(CudaBackend.open(List.of(1), IMAGE, why::add).isEmpty());
        assertEquals("cuda:1 Proofline Fake GPU B has compute capability 8.6; the kernels are built for 9.0 and newer"
                + " (sm_90 code and compute_90 PTX)", why.getLast());
        assertTrue(CudaBackend.open(List.of(0, 2), IMAGE, why::add).isEmpty());
        assertEquals("cuda:2 does not exist: the driver lists 2 devices", why.getLast());
        fake.setComputeCapability(0, 8, 0);
        assertTrue(CudaBackend.open(List.of(), IMAGE, why::add).isEmpty());
        assertTrue(why.getLast().startsWith("cuda:0 Proofline Fake GPU A has compute capability 8.0; ")
                && why.getLast().contains("; cuda:1 Proofline Fake GPU B has compute capability 8.6"), why.getLast());
        fake.setComputeCapability(0, 9, 0);
        fake.setComputeCapability(1, 10, 0);
        try (CudaBackend second = CudaBackend.open(List.of(1), IMAGE, why::add).orElseThrow()) {
            assertEquals(1, second.deviceCount());
            assertEquals(1, second.device().ordinal());
        }
        assertEquals(List.of(), CudaBackend.parseDevices(" "));
        assertEquals(List.of(1, 0), CudaBackend.parseDevices("1, 0"));
        for (String bad : new String[] {"x", "0,0", "-1", "0,,1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CudaBackend.parseDevices(bad));
            assertTrue(e.getMessage().startsWith(CudaBackend.DEVICES_PROPERTY), e.getMessage());
        }
        System.setProperty(CudaBackend.DEVICES_PROPERTY, "0,7");
        try {
            assertTrue(CudaBackend.open(why::add).isEmpty());
            assertTrue(why.getLast().equals("cuda:7 does not exist: the driver lists 2 devices")
                    || why.getLast().contains("no CUDA kernels"), why.getLast());
        } finally {
            System.clearProperty(CudaBackend.DEVICES_PROPERTY);
        }
        assertEquals(0, fake.primaryRefs(0));
        assertEquals(0, fake.primaryRefs(1));
    }

    @Test
    void aPayloadThatIsNoCircuitJobsIsRefusedBeforeTheDevice() {
        try (CudaBackend gpu = CudaBackend.open(List.of(0), IMAGE, s -> { }).orElseThrow()) {
            DeviceBackendAdapter<?> engineSide = DeviceBackendAdapter.of(gpu, Prover.create());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> engineSide.prepare(7, 0));
            assertEquals("the cuda backend proves circuit jobs; this job's synthesis gave java.lang.Integer",
                    e.getMessage());
        }
    }

    @Test
    void pinnedBuffersFromTheAllocatorArePageLockedAndFreedOnce() {
        CudaBackend gpu = CudaBackend.open(List.of(0), IMAGE, s -> { }).orElseThrow();
        try (gpu) {
            long before = fake.livePinnedBytes();
            BufferPool.Allocation a = gpu.bufferAllocator().allocate(1 << 20);
            assertEquals(before + (1 << 20), fake.livePinnedBytes());
            assertTrue(a.segment().isNative());
            a.segment().fill((byte) 1);
            a.free().run();
            a.free().run();
            assertEquals(before, fake.livePinnedBytes());
            assertThrows(IllegalStateException.class, () -> a.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0),
                    "the freed memory is no longer reachable");
        }
    }
}
