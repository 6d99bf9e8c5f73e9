package dev.proofline.cuda;

import dev.proofline.engine.BackendSettings;
import dev.proofline.engine.BufferPool;
import dev.proofline.engine.ProverBackend.DeviceMemory;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.DeviceBackend;
import dev.proofline.groth16.ProofSums;
import dev.proofline.groth16.Prover;
import dev.proofline.groth16.ProvingKey;
import dev.proofline.groth16.Scalars;
import dev.proofline.groth16.Step;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The CUDA backend ({@code cuda}): H (NTTs), the G1 MSMs and B in G2 (and a, b, c of keys proved from
 * their coefficients) on GPUs ({@link GpuAccelerator}, one per lane), as a {@link DeviceBackend}; the
 * engine's adapter runs the rest of each proof (assembly, verification) on the CPU, as in the system this
 * engine is modelled on.
 *
 * <p>Every usable device the driver lists (compute capability 9.0 or newer), or those named (by
 * ordinal in {@link BackendSettings#devices}, or {@code -Dproofline.cuda.devices=0,2}), serves the
 * engine's one prover queue: each lane of a device is one of the engine's devices, with its lock and its
 * prover workers, and each
 * device keeps the points of the keys it proved with resident. The engine's pool buffers are
 * page-locked host memory from {@code cuMemHostAlloc} (portable: any device copies from them by DMA);
 * synthesis computes a, b, c (PCE) and puts the witness's words straight into them, {@code stage}
 * completes a, b, c outside the device lock, and {@code sums} copies them to its device on a copy
 * stream overlapped with the NTTs and MSMs. Close the engine before the backend (its pool frees the
 * pinned buffers through the backend's context).
 */
public final class CudaBackend implements DeviceBackend<CudaBackend.Staged> {

    /**
     * System property: the ordinals of the devices to prove on, comma separated; when set it overrides
     * the configured devices ({@link BackendSettings#devices}).
     */
    public static final String DEVICES_PROPERTY = "proofline.cuda.devices";

    /**
     * System property, {@code -Dproofline.cuda.g2=false}: B in G2 on the CPU in the prover's finish,
     * instead of on the GPU with the G1 MSMs (the key's B2 points resident as well); when set it
     * overrides {@link BackendSettings#g2OnDevice}, which is on by default (a 2^20 BN254 proof on an
     * H200 takes several times as long with it on the CPU: BENCHMARKS.md, "GPU").
     */
    public static final String G2_PROPERTY = "proofline.cuda.g2";

    /**
     * System property, {@code -Dproofline.cuda.abc=false}: a, b, c of keys proved from their coefficients
     * (circom keys) on the CPU, before the device is taken, instead of on the GPU from the key's
     * coefficients (resident there) and the witness; when set it overrides
     * {@link BackendSettings#abcOnDevice}, which is on by default.
     */
    public static final String ABC_PROPERTY = "proofline.cuda.abc";

    /**
     * System property, {@code -Dproofline.cuda.lanes=2}: proofs each device works on at once; when set it
     * overrides {@link BackendSettings#lanesPerDevice}.
     */
    public static final String LANES_PROPERTY = "proofline.cuda.lanes";

    /**
     * What {@code sums} takes, decided once in {@code stage}: a, b, c completed in the pool's pinned
     * buffers, or a job's heap vectors (proved through {@code CudaNtt}'s and {@code CudaMsm}'s staging).
     */
    public sealed interface Staged permits Pinned, Heap {
    }

    /** a, b, c and the witness in pinned buffers, ready to be copied to a device. */
    public record Pinned(Prover.Prepared prepared) implements Staged {
    }

    /** Heap vectors, copied through pinned staging buffers. */
    public record Heap(CircuitJob.HeapSynthesized synthesized) implements Staged {
    }

    /**
     * One lane of a device (the engine's "device"): its accelerator, with streams of its own and the
     * device's resident keys ({@code keys}, shared by the device's lanes and closed with its lane 0).
     */
    private record Gpu(Context context, int lane, DeviceKeys keys, GpuAccelerator accelerator) {
    }

    /** The lanes, each device's together. */
    private final List<Gpu> gpus;
    private final int lanes;
    private final BufferPool.Allocator pinned;

    private CudaBackend(List<Gpu> gpus, int lanes) {
        this.gpus = List.copyOf(gpus);
        this.lanes = lanes;
        Context first = gpus.getFirst().context();
        this.pinned = bytes -> {
            PinnedBuffer b = first.allocatePinned(bytes);
            return new BufferPool.Allocation(b.segment(), b::close);
        };
    }

    /**
     * The backend on every usable CUDA device, or empty with the reason (no driver, no usable device, no
     * kernels in this build) in {@code why}; as {@link #open(BackendSettings, Consumer)} with the default
     * settings.
     */
    public static Optional<CudaBackend> open(Consumer<String> why) {
        return open(BackendSettings.defaults(), why);
    }

    /**
     * The backend on the devices {@code configured} names (none: every usable one), with B in G2 on the
     * devices if it says so and its driver library, each overridden by its system property when that is
     * set ({@link CudaPropertyOverrides}); or empty with the reason in {@code why}. A named device that
     * is missing or unusable makes the backend unavailable.
     */
    public static Optional<CudaBackend> open(BackendSettings configured, Consumer<String> why) {
        BackendSettings settings;
        try {
            settings = CudaPropertyOverrides.apply(configured, System::getProperty);
        } catch (IllegalArgumentException e) {
            why.accept(e.getMessage());
            return Optional.empty();
        }
        Optional<byte[]> image = KernelImage.load();
        if (image.isEmpty()) {
            CudaDriver.Availability av = CudaDriver.load(settings.driverLibrary());
            why.accept(av instanceof CudaDriver.Unavailable(String reason) ? reason
                    : "this build has no CUDA kernels (built where there was no GPU driver or no nvcc; rebuild with"
                            + " PROOFLINE_CUDA_KERNELS=always, or -Dcuda.kernels=always)");
            return Optional.empty();
        }
        return open(settings, image.get(), why);
    }

    /**
     * As {@link #open(BackendSettings, Consumer)} on the devices of the given ordinals, with the
     * kernels of {@code image} (the tests' fake driver); the system properties still override.
     */
    static Optional<CudaBackend> open(List<Integer> ordinals, byte[] image, Consumer<String> why) {
        BackendSettings settings;
        try {
            settings = CudaPropertyOverrides.apply(BackendSettings.builder().devices(ordinals).build(),
                    System::getProperty);
        } catch (IllegalArgumentException e) {
            why.accept(e.getMessage());
            return Optional.empty();
        }
        return open(settings, image, why);
    }

    /** The backend on what {@code settings} says as it stands (no overrides), with the kernels of {@code image}. */
    static Optional<CudaBackend> open(BackendSettings settings, byte[] image, Consumer<String> why) {
        CudaDriver.Availability av = CudaDriver.load(CudaPropertyOverrides.library(settings, name -> null));
        if (!(av instanceof CudaDriver.Available ok)) {
            why.accept(((CudaDriver.Unavailable) av).reason());
            return Optional.empty();
        }
        List<Integer> ordinals = settings.devices();
        List<Device> all = ok.driver().devices();
        List<Device> chosen = new ArrayList<>();
        List<String> unusable = new ArrayList<>();
        if (ordinals.isEmpty()) {
            for (Device d : all) {
                unusable(d).ifPresentOrElse(unusable::add, () -> chosen.add(d));
            }
            if (chosen.isEmpty()) {
                why.accept(String.join("; ", unusable));
                return Optional.empty();
            }
        } else {
            for (int o : ordinals) {
                if (o >= all.size()) {
                    why.accept("cuda:" + o + " does not exist: the driver lists " + all.size() + " device"
                            + (all.size() == 1 ? "" : "s"));
                    return Optional.empty();
                }
                Optional<String> no = unusable(all.get(o));
                if (no.isPresent()) {
                    why.accept(no.get());
                    return Optional.empty();
                }
                chosen.add(all.get(o));
            }
        }
        List<Gpu> gpus = new ArrayList<>();
        try {
            for (Device d : chosen) {
                DeviceKeys keys = new DeviceKeys();
                for (int lane = 0; lane < settings.lanesPerDevice(); lane++) {
                    Context ctx = d.retainPrimaryContext();
                    try {
                        GpuAccelerator acc = new GpuAccelerator(ctx, image, settings.g2OnDevice(),
                                settings.abcOnDevice(), keys);
                        gpus.add(new Gpu(ctx, lane, keys, acc));
                    } catch (RuntimeException e) {
                        if (lane == 0) {
                            keys.close();
                        }
                        ctx.close();
                        throw e;
                    }
                }
            }
            return Optional.of(new CudaBackend(gpus, settings.lanesPerDevice()));
        } catch (RuntimeException e) {
            close(gpus);
            why.accept(e.getMessage());
            return Optional.empty();
        }
    }

    /** Why a device cannot run the kernels, if it cannot. */
    private static Optional<String> unusable(Device d) {
        if (d.computeMajor() < 9) {
            return Optional.of(d + " has compute capability " + d.computeCapability()
                    + "; the kernels are built for 9.0 and newer (sm_90 code and compute_90 PTX)");
        }
        return Optional.empty();
    }

    /** Ordinals from "0,2" (blank: none, meaning every usable device). */
    static List<Integer> parseDevices(String text) {
        LinkedHashSet<Integer> out = new LinkedHashSet<>();
        if (text == null || text.isBlank()) {
            return List.of();
        }
        for (String part : text.split(",")) {
            String t = part.strip();
            try {
                int o = Integer.parseInt(t);
                if (o < 0 || !out.add(o)) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(DEVICES_PROPERTY + " = \"" + text
                        + "\": expected distinct device ordinals separated by commas, e.g. 0,1");
            }
        }
        return List.copyOf(out);
    }

    @Override
    public String name() {
        return "cuda";
    }

    /** "CUDA backend on 2 GPU(s): NVIDIA H200, NVIDIA H200", and ", 2 lanes each" when there are more than one. */
    @Override
    public String summary() {
        List<Device> devices = gpus();
        return "CUDA backend on " + devices.size() + " GPU(s): "
                + String.join(", ", devices.stream().map(Device::name).toList())
                + (lanes > 1 ? ", " + lanes + " lanes each" : "");
    }

    /** The lanes: each device's {@link BackendSettings#lanesPerDevice} times the devices. */
    @Override
    public int deviceCount() {
        return gpus.size();
    }

    /**
     * One line a lane (the engine's device): ordinal (and lane, when a device has more than one), name,
     * compute capability, SMs, the device's memory now (used, total, free) and the keys resident for the
     * lane, with each key's footprint.
     */
    @Override
    public List<String> devices() {
        List<String> lines = new ArrayList<>(gpus.size());
        List<DeviceMemory> memory = deviceMemory();
        for (int i = 0; i < gpus.size(); i++) {
            Device d = gpus.get(i).context().device();
            DeviceMemory m = memory.get(i);
            String mem = m.freeBytes() < 0 ? "memory " + size(d.totalMemory()) + " (free: unknown)"
                    : "memory " + size(m.totalBytes() - m.freeBytes()) + " used of " + size(m.totalBytes()) + " ("
                            + size(m.freeBytes()) + " free)";
            List<String> keys = gpus.get(i).accelerator().footprints();
            String lane = lanes > 1 ? " lane " + gpus.get(i).lane() : "";
            lines.add(String.format(Locale.ROOT, "cuda:%d%s %s, compute capability %s, %d SMs, %s, %d key%s resident (%s%s)",
                    d.ordinal(), lane, d.name(), d.computeCapability(), d.multiprocessors(), mem, m.residentKeys(),
                    m.residentKeys() == 1 ? "" : "s", size(m.residentKeyBytes()),
                    keys.isEmpty() ? "" : ": " + String.join(", ", keys)));
        }
        return lines;
    }

    /** 1.5 GiB, 12.0 MiB, 3 KiB. */
    static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        }
        return ((bytes + 1023) >> 10) + " KiB";
    }

    /** Each device's memory now ({@code cuMemGetInfo}) and its resident keys. */
    @Override
    public List<DeviceMemory> deviceMemory() {
        List<DeviceMemory> out = new ArrayList<>(gpus.size());
        for (Gpu g : gpus) {
            long total = g.context().device().totalMemory();
            long free = -1;
            try {
                CudaDriver.MemoryInfo info = g.context().memoryInfo();
                total = info.total();
                free = info.free();
            } catch (RuntimeException e) {
                // a status page shows what it can; the device's total is known from its listing
            }
            out.add(new DeviceMemory(total, free, g.accelerator().residentBytes(), g.accelerator().residentKeys()));
        }
        return out;
    }

    @Override
    public BufferPool.Memory bufferMemory() {
        return BufferPool.Memory.PINNED;
    }

    /** Page-locked host memory ({@code cuMemHostAlloc}, portable), freed by {@code cuMemFreeHost}. */
    @Override
    public BufferPool.Allocator bufferAllocator() {
        return pinned;
    }

    /**
     * A circuit job's payload staged for the context's lane: native vectors have a, b, c completed in the
     * pinned buffers (or left to the device where it computes them) and the witness's words there, outside
     * the lane's lock; heap vectors go as they are.
     */
    @Override
    public Staged stage(DeviceContext context, CircuitJob.Payload partition) {
        return switch (partition) {
            case CircuitJob.NativeSynthesized s -> new Pinned(context.prover().prepare(s.key(), s.witness(),
                    s.workspace(), s.rows(), computesAbc(s.key())));
            case CircuitJob.HeapSynthesized s -> new Heap(s);
        };
    }

    /**
     * H and the G1 sums (and B in G2 where {@link BackendSettings#g2OnDevice}) on the context's lane: from
     * the pinned buffers by async copies, or from heap vectors (a, b, c completed on the CPU first) through
     * pinned staging.
     */
    @Override
    public ProofSums sums(DeviceContext context, Staged staged) {
        GpuAccelerator acc = gpus.get(context.device()).accelerator();
        return switch (staged) {
            case Pinned(Prover.Prepared p) -> {
                context.step(Step.H);
                yield p.abcLeftToDevice() ? acc.sumsFromWitness(p.key(), p.workspace()) : acc.sums(p.key(), p.workspace());
            }
            case Heap(CircuitJob.HeapSynthesized s) -> {
                Prover.Workspace ws = s.workspace() != null ? s.workspace() : Prover.Workspace.allocate(s.key());
                Prover.Abc abc = context.prover().abc(s.key(), s.witness(), ws, s.rows());
                context.step(Step.H);
                Scalars.Canonical h = acc.quotient(s.key(), abc);
                context.step(Step.MSM_A);
                yield acc.g1Sums(s.key(), Scalars.Canonical.of(s.witness()), h);
            }
        };
    }

    /** Whether a, b, c of proofs with {@code key} are computed on the devices ({@link BackendSettings#abcOnDevice}). */
    @Override
    public boolean computesAbc(ProvingKey key) {
        return gpus.getFirst().accelerator().computesAbc(key);
    }

    /** The first device this backend proves on. */
    public Device device() {
        return gpus.getFirst().context().device();
    }

    /** The devices this backend proves on, each once, in order. */
    public List<Device> gpus() {
        return gpus.stream().filter(g -> g.lane() == 0).map(g -> g.context().device()).toList();
    }

    /** Proofs each device works on at once. */
    public int lanesPerDevice() {
        return lanes;
    }

    /** Keys resident on each device (for tests and status). */
    List<GpuAccelerator> accelerators() {
        return gpus.stream().map(Gpu::accelerator).toList();
    }

    @Override
    public void close() {
        close(gpus);
    }

    /** The lanes' accelerators, then each device's resident keys, then the lanes' holds on the contexts. */
    private static void close(List<Gpu> gpus) {
        RuntimeException first = null;
        for (Gpu g : gpus) {
            try {
                g.accelerator().close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        for (Gpu g : gpus) {
            try {
                if (g.lane() == 0) {
                    g.keys().close();
                }
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        for (Gpu g : gpus) {
            try {
                g.context().close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
