package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CudaNtt} on the machine's GPU against the Java {@link Ntt} and the prover's H step, both scalar
 * fields, 2^10 .. 2^20 points, random vectors, word for word. Every test skips, with the reason printed
 * once, where there is no usable driver or device, no fatbin (built without nvcc) or a device older than
 * the fatbin's code (compute 9.0).
 */
class GpuNttTest {

    private static String unavailable;
    private static Context context;
    private static CudaNtt ntt;

    @BeforeAll
    static void open() {
        switch (CudaDriver.load()) {
            case CudaDriver.Unavailable(String reason) -> unavailable = reason;
            case CudaDriver.Available(CudaDriver d) -> {
                Device device = d.devices().getFirst();
                if (KernelImage.load().isEmpty()) {
                    unavailable = "no " + KernelImage.RESOURCE + " (the module was built without kernels: no GPU driver or no nvcc then)";
                } else if (device.computeMajor() < 9) {
                    unavailable = device + " is compute " + device.computeCapability()
                            + "; the fatbin holds sm_90 code and compute_90 PTX";
                } else {
                    context = device.retainPrimaryContext();
                    ntt = CudaNtt.load(context);
                    System.out.println("GPU NTT tests on " + device);
                }
            }
        }
        if (unavailable != null) {
            System.out.println("SKIPPED (GPU NTT tests): " + unavailable);
        }
    }

    @AfterAll
    static void close() {
        if (ntt != null) {
            ntt.close();
        }
        if (context != null) {
            context.close();
        }
    }

    private static CudaNtt ntt() {
        if (ntt == null) {
            Assumptions.abort("no usable CUDA device: " + unavailable);
        }
        return ntt;
    }

    static Stream<Arguments> sizes() {
        List<Arguments> a = new ArrayList<>();
        for (PairingCurve c : PairingCurve.values()) {
            for (int logN = 10; logN <= 20; logN++) {
                a.add(Arguments.of(c, logN));
            }
        }
        return a.stream();
    }

    /** Random elements: random limbs with the top one below the modulus's, so each is below q. */
    private static long[] random(PrimeField f, int n, Random rnd) {
        int w = f.width();
        long top = f.modulusWords()[w - 1];
        long[] v = new long[n * w];
        for (int i = 0; i < n * w; i++) {
            v[i] = (i % w == w - 1) ? Long.remainderUnsigned(rnd.nextLong(), top) : rnd.nextLong();
        }
        return v;
    }

    private static void check(String what, long[] expected, long[] actual, int w) {
        if (!Arrays.equals(expected, actual)) {
            int at = Arrays.mismatch(expected, actual) / w;
            assertArrayEquals(Arrays.copyOfRange(expected, at * w, at * w + w), Arrays.copyOfRange(actual, at * w, at * w + w),
                    what + ": first difference in element " + at);
        }
    }

    @ParameterizedTest(name = "{0} 2^{1}")
    @MethodSource("sizes")
    void everyTransformEqualsJava(PairingCurve curve, int logN) {
        CudaNtt gpu = ntt();
        PrimeField f = curve.fr();
        int n = 1 << logN;
        int w = f.width();
        Ntt cpu = Ntt.of(f, logN);
        Random rnd = new Random(logN * 1009L + curve.ordinal());
        long[] g = random(f, 1, rnd);
        long[] shift = RootsOfUnity.snarkjsCosetShift(f, logN);

        long[] a = random(f, n, rnd);
        long[] x = a.clone();
        long[] y = a.clone();
        cpu.forward(x);
        gpu.forward(f, logN, y);
        check("forward", x, y, w);

        x = a.clone();
        y = a.clone();
        cpu.inverse(x);
        gpu.inverse(f, logN, y);
        check("inverse", x, y, w);

        x = a.clone();
        y = a.clone();
        cpu.cosetForward(x, g, 0);
        gpu.cosetForward(f, logN, y, g, 0);
        check("coset forward", x, y, w);

        x = a.clone();
        y = a.clone();
        cpu.cosetInverse(x, g, 0);
        gpu.cosetInverse(f, logN, y, g, 0);
        check("coset inverse", x, y, w);

        x = a.clone();
        y = a.clone();
        cpu.evaluationsOnCoset(x, shift, 0);
        gpu.evaluationsOnCoset(f, logN, y, shift, 0);
        check("evaluations on the coset", x, y, w);

        long[] b = random(f, n, rnd);
        long[] c = random(f, n, rnd);
        long[] expected = HostNttTest.quotient(f, logN, a.clone(), b.clone(), c.clone());
        long[] bCopy = b.clone();
        long[] h = gpu.quotient(f, logN, a.clone(), b, c);
        check("quotient", expected, h, w);
        check("b left as it was", bCopy, b, w);
    }

    @Test
    void aLongerArrayKeepsItsTailAndSizesMayShrink() {
        CudaNtt gpu = ntt();
        PrimeField f = PairingCurve.BN254.fr();
        int w = f.width();
        Random rnd = new Random(5);
        for (int logN : new int[] {14, 11, 14, 3}) {
            long[] a = random(f, (1 << logN) + 3, rnd);
            long[] x = a.clone();
            long[] y = a.clone();
            Ntt.of(f, logN).inverse(x);
            gpu.inverse(f, logN, y);
            check("inverse of 2^" + logN + " in a longer array", x, y, w);
        }
    }
}
