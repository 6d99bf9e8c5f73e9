package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.testing.TestPoints;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kernels' field and G1 arithmetic, compiled for the CPU into the host test programs (and, where
 * there is a GPU, run on it by the device test program), against the Java field classes and
 * {@link PointArithmetic}: random operands and edge cases, results compared word for word. Each program
 * is skipped, saying why, when the build could not make it.
 */
class HostArithmeticTest {

    private static final int RANDOM_OPERANDS = 1000;
    private static final int RANDOM_POINTS = 40;

    static Stream<Arguments> fields() {
        List<Arguments> a = new ArrayList<>();
        for (String program : HostProgram.NAMES) {
            for (PairingCurve c : PairingCurve.values()) {
                String prefix = c == PairingCurve.BN254 ? "bn254" : "bls12381";
                a.add(Arguments.of(program, prefix + "_fr", c.fr()));
                a.add(Arguments.of(program, prefix + "_fp", c.fp()));
            }
        }
        return a.stream();
    }

    static Stream<Arguments> curves() {
        List<Arguments> a = new ArrayList<>();
        for (String program : HostProgram.NAMES) {
            a.add(Arguments.of(program, "bn254_g1", PairingCurve.BN254));
            a.add(Arguments.of(program, "bls12381_g1", PairingCurve.BLS12_381));
        }
        return a.stream();
    }

    private static Path program(String name) {
        Path p = HostProgram.directory().resolve(name);
        assumeTrue(Files.isExecutable(p), "the test program " + p + " was not built: "
                + switch (name) {
                    case "host_test_nvcc" -> "nvcc was not on the PATH when the module was built";
                    case "device_test" -> "no GPU was visible (/dev/nvidia*) or nvcc was not on the PATH when the "
                            + "module was built";
                    default -> "neither g++ nor nvcc was on the PATH when the module was built, so the CUDA "
                            + "arithmetic is not tested here";
                });
        return p;
    }

    // ------------------------------------------------------------------ fields

    /** Montgomery-form operands: 0, 1, -1, 2, raw words 1 and q-1, top-limb boundaries, random ones. */
    private static List<long[]> operands(PrimeField f, Random rnd) {
        BigInteger q = f.modulus();
        int n = f.limbs();
        List<long[]> ops = new ArrayList<>();
        ops.add(f.newElement());                             // 0
        ops.add(f.fromLong(1));
        ops.add(f.fromBigInteger(q.subtract(BigInteger.ONE))); // -1, i.e. p - 1
        ops.add(f.fromLong(2));
        ops.add(PrimeField.words(BigInteger.ONE, n));       // the element whose Montgomery form is 1
        ops.add(PrimeField.words(q.subtract(BigInteger.ONE), n));
        ops.add(PrimeField.words(q.subtract(BigInteger.TWO), n));
        ops.add(PrimeField.words(q.shiftRight(1), n));       // (q-1)/2
        ops.add(PrimeField.words(q.shiftRight(1).add(BigInteger.ONE), n));
        for (int k = 1; k < n; k++) {
            ops.add(PrimeField.words(BigInteger.ONE.shiftLeft(64 * k).subtract(BigInteger.ONE), n));
            ops.add(PrimeField.words(BigInteger.ONE.shiftLeft(64 * k), n));
        }
        for (int i = 0; i < RANDOM_OPERANDS; i++) {
            ops.add(PrimeField.words(new BigInteger(q.bitLength() + 16, rnd).mod(q), n));
        }
        for (long[] o : ops) {
            assertTrue(f.isCanonical(o, 0), "operand below q");
        }
        return ops;
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("fields")
    void fieldArithmeticMatchesTheJavaField(String programName, String group, PrimeField f) throws Exception {
        Path p = program(programName);
        Random rnd = new Random(group.hashCode());
        List<long[]> ops = operands(f, rnd);
        HostProgram h = new HostProgram(p);
        int edge = ops.size() - RANDOM_OPERANDS;
        for (int i = 0; i < ops.size(); i++) {
            long[] a = ops.get(i);
            // every edge operand with every edge operand; random ones with a neighbour and an edge operand
            List<long[]> others = new ArrayList<>();
            if (i < edge) {
                others.addAll(ops.subList(0, edge));
            } else {
                others.add(ops.get(i - 1));
                others.add(ops.get(rnd.nextInt(edge)));
                others.add(a);
            }
            for (long[] b : others) {
                long[] r = f.newElement();
                f.mul(a, 0, b, 0, r, 0);
                h.add("mul", group, "mul", r, a, b);
                f.add(a, 0, b, 0, r, 0);
                h.add("add", group, "add", r, a, b);
                f.sub(a, 0, b, 0, r, 0);
                h.add("sub", group, "sub", r, a, b);
            }
            long[] r = f.newElement();
            f.sqr(a, 0, r, 0);
            h.add("sqr", group, "sqr", r, a);
            f.dbl(a, 0, r, 0);
            h.add("dbl", group, "dbl", r, a);
            f.neg(a, 0, r, 0);
            h.add("neg", group, "neg", r, a);
            // the operand read as canonical words into Montgomery form, and out of it
            f.toMontgomery(a, 0, r, 0);
            h.add("to_mont", group, "to_mont", r, a);
            f.fromMontgomery(a, 0, r, 0);
            h.add("from_mont", group, "from_mont", r, a);
        }
        h.runAndCompare();
    }

    // ------------------------------------------------------------------ G1

    private static long[] concat(long[]... parts) {
        int n = 0;
        for (long[] p : parts) {
            n += p.length;
        }
        long[] r = new long[n];
        int o = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, r, o, p.length);
            o += p.length;
        }
        return r;
    }

    /** The affine point as Jacobian (x z^2, y z^3, z) for a random non-zero z. */
    private static long[] randomJacobian(PrimeField f, long[] affine, Random rnd) {
        int w = f.limbs();
        long[] z;
        do {
            z = f.fromBigInteger(new BigInteger(f.bits() + 16, rnd));
        } while (f.isZero(z, 0));
        long[] z2 = f.newElement();
        f.sqr(z, 0, z2, 0);
        long[] z3 = f.newElement();
        f.mul(z2, 0, z, 0, z3, 0);
        long[] j = new long[3 * w];
        f.mul(affine, 0, z2, 0, j, 0);
        f.mul(affine, w, z3, 0, j, w);
        System.arraycopy(z, 0, j, 2 * w, w);
        return j;
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("curves")
    void g1ArithmeticMatchesTheJavaCurve(String programName, String group, PairingCurve curve) throws Exception {
        Path p = program(programName);
        WeierstrassCurve c = curve.g1();
        PointArithmetic pa = c.arithmetic();
        PrimeField f = curve.fp();
        int w = f.limbs();
        Random rnd = new Random(group.hashCode());

        // affine points: generator, random multiples; a point at infinity (0, 0)
        List<long[]> affine = new ArrayList<>();
        affine.add(c.generator());
        for (int i = 0; i < RANDOM_POINTS; i++) {
            affine.add(TestPoints.multipleOfGenerator(c, new BigInteger(64, rnd).add(BigInteger.TWO)));
        }
        long[] infAffine = new long[2 * w];
        long[] inf = new long[3 * w];
        pa.setInfinity(inf, 0);
        // Z = 0 with other X and Y: still infinity
        long[] infOther = concat(f.fromLong(5), f.fromLong(7), f.newElement());

        HostProgram h = new HostProgram(p);
        long[] r = new long[3 * w];
        for (int i = 0; i < affine.size(); i++) {
            long[] a = affine.get(i);
            long[] aNeg = new long[2 * w];
            pa.negAffine(a, 0, aNeg, 0);
            long[] pj = randomJacobian(f, a, rnd);
            long[] pj2 = randomJacobian(f, a, rnd);         // the same point, another Z
            long[] pjNeg = new long[3 * w];
            pa.neg(pj2, 0, pjNeg, 0);
            long[] b = affine.get((i + 1) % affine.size());
            long[] qj = randomJacobian(f, b, rnd);

            pa.fromAffine(a, 0, r, 0);
            h.add("from_affine", group, "from_affine", r, a);
            pa.neg(pj, 0, r, 0);
            h.add("neg", group, "neg", r, pj);
            pa.dbl(pj, 0, r, 0);
            h.add("dbl", group, "dbl", r, pj);

            pa.add(pj, 0, qj, 0, r, 0);
            h.add("add P + Q", group, "add", r, pj, qj);
            pa.add(pj, 0, pj, 0, r, 0);
            h.add("add P + P", group, "add", r, pj, pj);
            pa.add(pj, 0, pj2, 0, r, 0);
            h.add("add P + P (other Z)", group, "add", r, pj, pj2);
            pa.add(pj, 0, pjNeg, 0, r, 0);
            h.add("add P + -P", group, "add", r, pj, pjNeg);
            pa.add(pj, 0, inf, 0, r, 0);
            h.add("add P + O", group, "add", r, pj, inf);
            pa.add(inf, 0, pj, 0, r, 0);
            h.add("add O + P", group, "add", r, inf, pj);

            pa.addMixed(pj, 0, b, 0, r, 0);
            h.add("add_mixed P + Q", group, "add_mixed", r, pj, b);
            pa.addMixed(pj, 0, a, 0, r, 0);
            h.add("add_mixed P + P", group, "add_mixed", r, pj, a);
            pa.addMixed(pj, 0, aNeg, 0, r, 0);
            h.add("add_mixed P + -P", group, "add_mixed", r, pj, aNeg);
            pa.addMixed(pj, 0, infAffine, 0, r, 0);
            h.add("add_mixed P + O", group, "add_mixed", r, pj, infAffine);
            pa.addMixed(inf, 0, a, 0, r, 0);
            h.add("add_mixed O + P", group, "add_mixed", r, inf, a);
        }
        for (long[] o : List.of(inf, infOther)) {
            pa.dbl(o, 0, r, 0);
            h.add("dbl O", group, "dbl", r, o);
            pa.add(o, 0, inf, 0, r, 0);
            h.add("add O + O", group, "add", r, o, inf);
            pa.addMixed(o, 0, infAffine, 0, r, 0);
            h.add("add_mixed O + O", group, "add_mixed", r, o, infAffine);
            pa.neg(o, 0, r, 0);
            h.add("neg O", group, "neg", r, o);
        }
        pa.fromAffine(infAffine, 0, r, 0);
        h.add("from_affine O", group, "from_affine", r, infAffine);

        // a chain: each result fed back in, so errors would compound
        long[] acc = randomJacobian(f, affine.get(1), rnd);
        for (int i = 0; i < 200; i++) {
            long[] next = new long[3 * w];
            long[] q = affine.get(i % affine.size());
            switch (i % 3) {
                case 0 -> {
                    pa.dbl(acc, 0, next, 0);
                    h.add("chain dbl", group, "dbl", next, acc);
                }
                case 1 -> {
                    pa.addMixed(acc, 0, q, 0, next, 0);
                    h.add("chain add_mixed", group, "add_mixed", next, acc, q);
                }
                default -> {
                    long[] qj = randomJacobian(f, q, rnd);
                    pa.add(acc, 0, qj, 0, next, 0);
                    h.add("chain add", group, "add", next, acc, qj);
                }
            }
            acc = next;
        }
        assertTrue(pa.isOnCurve(acc, 0), "the chain stays on the curve");
        h.runAndCompare();
    }
}
