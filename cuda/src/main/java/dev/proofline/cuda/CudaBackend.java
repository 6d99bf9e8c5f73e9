package dev.proofline.cuda;

import dev.proofline.engine.BufferPool;
import dev.proofline.engine.CpuBackend;
import dev.proofline.engine.ProverBackend;
import dev.proofline.groth16.Prover;
import java.util.Optional;

/**
 * The CUDA backend ({@code cuda}): the CPU backend's prover with H (NTTs) and the G1 MSMs on a GPU
 * ({@link GpuAccelerator}); a, b, c are computed on the CPU in the partition's pooled buffers, and
 * {@code finish} (G2 MSM, assembly, verification of every proof) stays on the CPU, as in the system
 * this engine is modelled on. One device for now: the first the driver lists.
 */
public final class CudaBackend implements ProverBackend, AutoCloseable {

    private final Context context;
    private final GpuAccelerator accelerator;
    private final CpuBackend cpu;

    private CudaBackend(Context context, Prover prover) {
        this.context = context;
        this.accelerator = new GpuAccelerator(context);
        this.cpu = new CpuBackend(prover.withAccelerator(accelerator));
    }

    /**
     * The backend on the first CUDA device with {@code prover}'s settings (randomness, listener), or
     * empty with the reason (no driver, no device, no kernels in this build) in {@code why}.
     */
    public static Optional<CudaBackend> open(Prover prover, java.util.function.Consumer<String> why) {
        CudaDriver.Availability av = CudaDriver.load();
        if (!(av instanceof CudaDriver.Available ok)) {
            why.accept(((CudaDriver.Unavailable) av).reason());
            return Optional.empty();
        }
        if (KernelImage.load().isEmpty()) {
            why.accept("this build has no CUDA kernels (nvcc was not on the PATH when it was built)");
            return Optional.empty();
        }
        Device device = ok.driver().devices().get(0);
        if (device.computeMajor() < 9) {
            why.accept(device.name() + " has compute capability " + device.computeCapability()
                    + "; the kernels are built for 9.0 and newer (sm_90 code and compute_90 PTX)");
            return Optional.empty();
        }
        Context ctx = device.retainPrimaryContext();
        try {
            return Optional.of(new CudaBackend(ctx, prover));
        } catch (RuntimeException e) {
            ctx.close();
            why.accept(e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public java.util.List<String> devices() {
        Device d = context.device();
        return java.util.List.of(String.format(java.util.Locale.ROOT, "%s, %d MiB, compute capability %s, %d SMs",
                d.name(), d.totalMemory() >> 20, d.computeCapability(), d.multiprocessors()));
    }

    @Override
    public BufferPool.Memory bufferMemory() {
        return BufferPool.Memory.HEAP;
    }

    @Override
    public Object start(Object synthesized) {
        return cpu.start(synthesized);
    }

    @Override
    public Object finish(Object started) {
        return cpu.finish(started);
    }

    /** The device this backend proves on. */
    public Device device() {
        return context.device();
    }

    @Override
    public void close() {
        accelerator.close();
        context.close();
    }
}
