package dev.proofline.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The kernels' fatbin, built by nvcc with the module (see {@code docs/cuda-kernels.md}) and carried as
 * the classpath resource {@value #RESOURCE}. A build without nvcc has no such resource.
 */
public final class KernelImage {

    /** The classpath resource holding the fatbin. */
    public static final String RESOURCE = "dev/proofline/cuda/kernels.fatbin";

    /** The first four bytes of a fatbin, read as a little-endian int. */
    public static final int FATBIN_MAGIC = 0xBA55ED50;

    /** r[i] = a[i] * b[i] in Montgomery form: {@code (const u64 *a, const u64 *b, u64 *r, u64 n)}. */
    public static final List<String> FIELD_MUL_ENTRY_POINTS = List.of(
            "pl_bn254_fr_mul_vec", "pl_bn254_fp_mul_vec", "pl_bls12381_fr_mul_vec", "pl_bls12381_fp_mul_vec");

    /**
     * r[i] = p[i] + q[i], p and r Jacobian, q affine: {@code (const u64 *p, const u64 *q, u64 *r, u64 n)}.
     */
    public static final List<String> G1_ADD_MIXED_ENTRY_POINTS = List.of(
            "pl_bn254_g1_add_mixed_vec", "pl_bls12381_g1_add_mixed_vec");

    /**
     * The NTT kernels of {@code ntt_kernels.cuh} ({@code pl_<field>_ntt_*} for bn254_fr and bls12381_fr),
     * launched by {@link CudaNtt}.
     */
    public static final List<String> NTT_ENTRY_POINTS = Stream.of("bn254_fr", "bls12381_fr")
            .flatMap(f -> NttPlan.KERNELS.stream().map(k -> NttPlan.entryPoint(f, k))).toList();

    /**
     * a, b, c from a key's grouped coefficients and the witness ({@code abc.cuh}), launched by
     * {@link CudaCoefficients}.
     */
    public static final List<String> ABC_ENTRY_POINTS = List.of("pl_bn254_fr_abc", "pl_bls12381_fr_abc");

    /** The MSM's kernels ({@code msm_kernels.cuh}), launched by {@link CudaMsm}. */
    public static final List<String> MSM_ENTRY_POINTS = List.of(
            "pl_msm_gather_scalars", "pl_msm_clear_u32", "pl_msm_chunk_sums", "pl_msm_scan", "pl_msm_scatter", "pl_msm_task_counts",
            "pl_bn254_msm_recode", "pl_bn254_msm_accumulate", "pl_bn254_msm_merge_groups", "pl_bn254_msm_merge",
            "pl_bn254_msm_reduce_segments", "pl_bn254_msm_scale_segments", "pl_bn254_msm_sum_runs",
            "pl_bls12381_msm_recode", "pl_bls12381_msm_accumulate", "pl_bls12381_msm_merge_groups",
            "pl_bls12381_msm_merge", "pl_bls12381_msm_reduce_segments", "pl_bls12381_msm_scale_segments",
            "pl_bls12381_msm_sum_runs",
            "pl_bn254_g2_msm_recode", "pl_bn254_g2_msm_accumulate", "pl_bn254_g2_msm_merge_groups",
            "pl_bn254_g2_msm_merge", "pl_bn254_g2_msm_reduce_segments", "pl_bn254_g2_msm_scale_segments",
            "pl_bn254_g2_msm_sum_runs",
            "pl_bls12381_g2_msm_recode", "pl_bls12381_g2_msm_accumulate", "pl_bls12381_g2_msm_merge_groups",
            "pl_bls12381_g2_msm_merge", "pl_bls12381_g2_msm_reduce_segments", "pl_bls12381_g2_msm_scale_segments",
            "pl_bls12381_g2_msm_sum_runs");

    private KernelImage() {
    }

    /** The fatbin's bytes, or empty when the module was built without nvcc. */
    public static Optional<byte[]> load() {
        try (InputStream in = KernelImage.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the resource " + RESOURCE, e);
        }
    }
}
