package dev.proofline.cuda;

/**
 * The sizes of {@link CudaMsm}'s work as the kernels of {@code msm.cuh} compute them (each names its
 * function there): the window size, the windows, the reduction's segments, the tasks and the scan's
 * chunks, from which the host sizes the launches and the scratch buffers.
 */
final class MsmSizes {

    private MsmSizes() {
    }

    /**
     * The window size for n points ({@code msm_window_bits}): log2(n) - 2 bits up to 8, 8 up to 2^16 points,
     * 15 from 2^17. A c whose top window holds only a few bits of the scalar (254 = 18 * 14 + 2: c = 14, and
     * likewise 12, 11, 9) sends every point's top digit into a handful of buckets, added one after another;
     * on an H200 (BENCHMARKS.md "GPU", every c from 6 to 15 at 2^12 to 2^20 points, both curves, G1 and
     * G2) c = 8 was the fastest from 2^12 to 2^16 (G2 BN254 at 2^16 took less than half the time of the
     * former log2(n) - 2 = 14) and 15 at 2^18 and 2^20; 15 had been faster than 16 at 2^20 and 2^22 and as
     * fast at 2^24 (docs/decisions/0017-gpu-first-runs.md).
     */
    static int windowBits(long n) {
        int lg = n < 1 ? 0 : 63 - Long.numberOfLeadingZeros(n);
        return lg <= 16 ? Math.clamp(lg - 2, 3, 8) : 15;
    }

    /** Windows for scalars of {@code bits} bits with c-bit signed digits ({@code msm_windows}). */
    static int windows(int bits, int c) {
        return (bits + c) / c;
    }

    /** Buckets a segment of the bucket reduction: 16, or all when there are fewer ({@code msm_segment_len}). */
    static int segmentLength(int buckets) {
        return Math.min(buckets, 16);
    }

    /** Points a sum_runs thread adds ({@code MSM_RUN}). */
    static final int RUN = 16;

    /** Points a bucket-accumulation task adds at most ({@code MSM_TASK}). */
    static final int TASK = 128;

    /** A bound of a window's tasks ({@code msm_max_tasks}). */
    static long maxTasks(long n, int buckets) {
        return (n + TASK - 1) / TASK + Math.min(buckets, n);
    }

    /** Buckets a chunk of the counts' prefix sums ({@code msm_scan_chunk}). */
    static int scanChunk(int buckets) {
        return Math.min(buckets, 256);
    }
}
