package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The fatbin resource: present whenever the build made it (nvcc there, and a GPU driver or
 * {@code -Dcuda.kernels=always}), with every entry point.
 */
class KernelImageTest {

    /** The flags file build-kernels.sh writes beside a fatbin it built, and removes when it builds none. */
    private static boolean builtThisTime() {
        String stamp = System.getProperty("proofline.cuda.kernelsStamp");
        return stamp != null && Files.isRegularFile(Path.of(stamp));
    }

    @Test
    void builtWhenTheBuildMadeItAndHoldsEveryEntryPoint() {
        Optional<byte[]> image = KernelImage.load();
        if (builtThisTime()) {
            assertTrue(image.isPresent(), "the build made the kernels but " + KernelImage.RESOURCE + " is missing");
        }
        assumeTrue(image.isPresent(), "the build made no kernels (no GPU driver or no nvcc; -Dcuda.kernels=always"
                + " builds them): nothing to check");
        byte[] b = image.get();
        assertTrue(b.length > 16, "fatbin size");
        assertEquals(KernelImage.FATBIN_MAGIC, ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0),
                "fatbin magic");
        // the parts: after the 16-byte header (magic, version, header size, size of the parts), each part
        // has its own header: kind (1 PTX, 2 ELF) at +0, header size at +4, padded payload size at +8,
        // compute capability (major * 10 + minor) at +28
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int headerSize = Short.toUnsignedInt(bb.getShort(6));
        long end = headerSize + bb.getLong(8);
        assertEquals(b.length, end, "fatbin size from its header");
        List<String> parts = new ArrayList<>();
        for (long off = headerSize; off < end; ) {
            int o = Math.toIntExact(off);
            int kind = Short.toUnsignedInt(bb.getShort(o));
            int arch = bb.getInt(o + 28);
            parts.add((kind == 1 ? "ptx" : kind == 2 ? "elf" : "kind" + kind) + "_" + arch);
            off += Integer.toUnsignedLong(bb.getInt(o + 4)) + Integer.toUnsignedLong(bb.getInt(o + 8));
        }
        assertTrue(parts.contains("elf_90") && parts.contains("ptx_90"),
                "sm_90 code and compute_90 PTX in the fatbin: " + parts);
        // the ELF part is stored uncompressed (build-kernels.sh passes --no-compress): its section names
        // carry the entry points' names
        String text = new String(b, StandardCharsets.ISO_8859_1);
        List<String> missing = new ArrayList<>();
        List<String> names = new ArrayList<>(KernelImage.FIELD_MUL_ENTRY_POINTS);
        names.addAll(KernelImage.G1_ADD_MIXED_ENTRY_POINTS);
        names.addAll(KernelImage.NTT_ENTRY_POINTS);
        names.addAll(KernelImage.MSM_ENTRY_POINTS);
        names.addAll(KernelImage.ABC_ENTRY_POINTS);
        for (String name : names) {
            if (!text.contains(".text." + name + "\0")) {
                missing.add(name);
            }
        }
        assertTrue(missing.isEmpty(), "entry points missing from the sm_90 code of the fatbin: " + missing);
    }
}
