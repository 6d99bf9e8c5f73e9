package dev.proofline.algebra.field;

/**
 * How the 8-lane kernels (the NTT's butterflies, the MSM's batched additions) multiply their limbs of 29
 * bits, held in 64-bit lanes: {@link #MASK} is ANDed onto both operands of each product. With 0xFFFFFFFF,
 * C2 compiles the product to {@code vpmuludq} (32 x 32 -> 64 bits; JDK-8341137 matches a 64-bit lane
 * product of two such ANDs); with all ones it drops the ANDs and the product stays {@code vpmullq} (64 x
 * 64 -> 64). The operands are below 2^32 either way.
 */
public final class LimbProducts {

    /** 0xFFFFFFFF where {@link #narrow} holds, else all ones. */
    public static final long MASK = narrow() ? 0xFFFFFFFFL : -1L;

    private LimbProducts() {
    }

    /**
     * Whether the products run as 32 x 32-bit products: on Intel cores, where {@code vpmullq} is three
     * uops with a latency of 15 cycles and {@code vpmuludq} one (on a Xeon the MSM additions and the NTT
     * take less time), not elsewhere (on AMD's Zen 4 both are fast and the ANDs only cost: BN254's MSM
     * additions got slower); docs/decisions/0005-32-bit-limb-products-on-intel.md and
     * 0004-g1-msm-second-round.md. {@code -Dproofline.vector.narrow=true}
     * or {@code false} decides instead of the CPU's vendor.
     */
    static boolean narrow() {
        String forced = System.getProperty("proofline.vector.narrow");
        if (forced != null) {
            return Boolean.parseBoolean(forced);
        }
        try (var lines = java.nio.file.Files.lines(java.nio.file.Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("vendor_id")).findFirst()
                    .map(l -> l.contains("GenuineIntel")).orElse(false);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }
}
