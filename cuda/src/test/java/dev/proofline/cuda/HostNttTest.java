package dev.proofline.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import dev.proofline.cuda.NttPlan.Launch;
import dev.proofline.cuda.NttPlan.Op;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The NTT kernels emulated on the CPU: the launches of {@link NttPlan} with the tables it makes, run by
 * the host program {@code ntt_host_test} (the functions of {@code ntt.cuh}, every thread index of a
 * launch in a loop, each step of a thread block in shared memory over all its threads, launch after
 * launch), against the Java {@link Ntt} and the prover's H step, for
 * both scalar fields at sizes 2^1 .. 2^12 on random vectors, word for word. Each program runs the
 * threads of a launch in ascending and in descending order. A program the build could not make is
 * skipped, saying why.
 */
class HostNttTest {

    private static final int MAX_LOG = 12;

    /**
     * The most stages a launch (on groups of as many elements in shared memory): the device's, and fewer,
     * so that sizes up to 2^12 take one to twelve launches, groups of strided elements among them.
     */
    private static final int[] BLOCK_LOGS = {NttPlan.MAX_BLOCK_LOG, 1, 3, 5};

    /** The programs and the order of the threads in a launch. */
    static Stream<Arguments> programs() {
        return Stream.of(
                Arguments.of("ntt_host_test", false), Arguments.of("ntt_host_test", true),
                Arguments.of("ntt_host_test_nvcc", false), Arguments.of("ntt_host_test_nvcc", true));
    }

    private static Path program(String name) {
        Path p = HostProgram.directory().resolve(name);
        assumeTrue(Files.isExecutable(p), "the test program " + p + " was not built: "
                + (name.endsWith("_nvcc") ? "nvcc was not on the PATH when the module was built"
                        : "neither g++ nor nvcc was on the PATH when the module was built, so the NTT kernels are "
                                + "not emulated here"));
        return p;
    }

    /** One case: a script for the program and the expected words of its output line. */
    private record Case(String description, String script, long[] expected) {
    }

    private static final class Script {
        private final StringBuilder sb = new StringBuilder();

        Script field(String prefix) {
            sb.append("field ").append(prefix).append('\n');
            return this;
        }

        Script buffer(String slot, long[] words) {
            sb.append("buf ").append(slot);
            for (long x : words) {
                sb.append(' ').append(Long.toHexString(x));
            }
            sb.append('\n');
            return this;
        }

        Script launches(List<Launch> launches) {
            for (Launch l : launches) {
                sb.append("launch ").append(l.kernel()).append(' ').append(l.count());
                for (NttPlan.Arg a : l.args()) {
                    sb.append(' ').append(switch (a) {
                        case NttPlan.Pointer p -> "p:" + slot(p.slot()) + ":" + p.element();
                        case NttPlan.Null ignored -> "null";
                        case NttPlan.U32 u -> "u:" + Integer.toUnsignedString(u.value());
                    });
                }
                sb.append('\n');
            }
            return this;
        }

        Script out(String slot) {
            sb.append("out ").append(slot).append('\n');
            return this;
        }

        static String slot(NttPlan.Slot s) {
            return switch (s) {
                case A -> "a";
                case B -> "b";
                case C -> "c";
                case TWIDDLES -> "tw";
                case SCALE -> "scale";
            };
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }

    private static long[] random(PrimeField f, int n, Random rnd) {
        long[] v = f.newVector(n);
        int w = f.width();
        for (int i = 0; i < n; i++) {
            f.copy(f.fromBigInteger(new BigInteger(f.bits() + 64, rnd)), 0, v, i * w);
        }
        return v;
    }

    /** The script of {@code op} on a (and b, c) with shift g, and the Java result. */
    private static Case transform(PrimeField f, int logN, int blockLog, Op op, long[] g, Random rnd) {
        int n = 1 << logN;
        String prefix = NttPlan.kernelPrefix(f);
        Ntt ntt = Ntt.of(f, logN);
        long[] a = random(f, n, rnd);
        Script s = new Script().field(prefix).buffer("a", a).buffer("tw", NttPlan.twiddles(f, logN));
        if (g != null) {
            long[] scale = NttPlan.scaleTables(f, logN, op, g, 0);
            if (scale.length > 0) {
                s.buffer("scale", scale);
            }
        }
        long[] expected = a.clone();
        switch (op) {
            case FORWARD -> ntt.forward(expected);
            case INVERSE -> ntt.inverse(expected);
            case COSET_FORWARD -> ntt.cosetForward(expected, g, 0);
            case COSET_INVERSE -> ntt.cosetInverse(expected, g, 0);
            case EVALUATIONS_ON_COSET -> ntt.evaluationsOnCoset(expected, g, 0);
            case QUOTIENT -> {
                long[] b = random(f, n, rnd);
                long[] c = random(f, n, rnd);
                s.buffer("b", b).buffer("c", c);
                expected = quotient(f, logN, a.clone(), b, c);
            }
        }
        s.launches(NttPlan.launches(op, logN, blockLog)).out("a");
        return new Case(f.name() + " " + op + " 2^" + logN + " (blocks of up to 2^" + blockLog + ")", s.toString(),
                expected);
    }

    /** The prover's H step (the groth16 module's Quotient): each on the coset, then a b - c out of Montgomery form. */
    static long[] quotient(PrimeField f, int logN, long[] a, long[] b, long[] c) {
        Ntt ntt = Ntt.of(f, logN);
        long[] g = RootsOfUnity.snarkjsCosetShift(f, logN);
        ntt.evaluationsOnCoset(a, g, 0);
        ntt.evaluationsOnCoset(b, g, 0);
        ntt.evaluationsOnCoset(c, g, 0);
        int w = f.width();
        long[] one = new long[w];
        one[0] = 1;
        for (int i = 0; i < 1 << logN; i++) {
            int o = i * w;
            f.mul(a, o, b, o, a, o);
            f.sub(a, o, c, o, a, o);
            f.mul(a, o, one, 0, a, o);
        }
        return a;
    }

    private static List<Case> cases(long seed) {
        Random rnd = new Random(seed);
        List<Case> cases = new ArrayList<>();
        for (PairingCurve curve : PairingCurve.values()) {
            PrimeField f = curve.fr();
            for (int logN = 1; logN <= MAX_LOG; logN++) {
                for (int blockLog : BLOCK_LOGS) {
                    long[] g = random(f, 1, rnd);
                    long[] shift = RootsOfUnity.snarkjsCosetShift(f, logN);
                    cases.add(transform(f, logN, blockLog, Op.FORWARD, null, rnd));
                    cases.add(transform(f, logN, blockLog, Op.INVERSE, null, rnd));
                    cases.add(transform(f, logN, blockLog, Op.COSET_FORWARD, g, rnd));
                    cases.add(transform(f, logN, blockLog, Op.COSET_INVERSE, g, rnd));
                    cases.add(transform(f, logN, blockLog, Op.EVALUATIONS_ON_COSET, shift, rnd));
                    cases.add(transform(f, logN, blockLog, Op.EVALUATIONS_ON_COSET, g, rnd));
                    cases.add(transform(f, logN, blockLog, Op.QUOTIENT, shift, rnd));
                }
            }
        }
        return cases;
    }

    /** Runs the scripts through the program, one output line each. */
    private static List<long[]> run(Path program, boolean descending, List<String> scripts)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("ntt-host-test");
        Path in = dir.resolve("in.txt");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        try {
            Files.writeString(in, String.join("", scripts), StandardCharsets.US_ASCII);
            List<String> cmd = new ArrayList<>(List.of(program.toString()));
            if (descending) {
                cmd.add("--descending");
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            // the sanitizer's leak check needs ptrace, which some sandboxes refuse; the buffers are freed at exit
            pb.environment().put("ASAN_OPTIONS", "detect_leaks=0");
            Process p = pb.start();
            // a guard against a hung program, not a measurement
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail(program + " did not finish");
            }
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), program + " failed: " + stderr.lines().limit(20).toList());
            List<long[]> results = new ArrayList<>();
            for (String line : Files.readAllLines(out, StandardCharsets.US_ASCII)) {
                String[] tok = line.trim().split(" ");
                long[] words = new long[tok.length];
                for (int k = 0; k < tok.length; k++) {
                    words[k] = Long.parseUnsignedLong(tok[k], 16);
                }
                results.add(words);
            }
            return results;
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            Files.deleteIfExists(dir);
        }
    }

    @ParameterizedTest(name = "{0}, descending {1}")
    @MethodSource("programs")
    void everyTransformEqualsJava(String name, boolean descending) throws Exception {
        Path program = program(name);
        List<Case> cases = cases(name.hashCode() * 31L + (descending ? 1 : 0));
        List<long[]> results = run(program, descending, cases.stream().map(Case::script).toList());
        assertEquals(cases.size(), results.size(), "one result a case from " + program);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            long[] actual = results.get(i);
            if (!Arrays.equals(c.expected(), actual)) {
                int w = 4;
                int at = Arrays.mismatch(c.expected(), actual);
                wrong.add(c.description() + ": " + actual.length + " words, expected " + c.expected().length
                        + "; first difference in element " + at / w + ": expected " + hex(c.expected(), at / w * w, w)
                        + ", actual " + hex(actual, at / w * w, w));
            }
        }
        if (!wrong.isEmpty()) {
            fail(wrong.size() + " of " + cases.size() + " cases differ from Java on " + name + " (descending "
                    + descending + "):\n  " + String.join("\n  ", wrong.subList(0, Math.min(20, wrong.size())))
                    + (wrong.size() > 20 ? "\n  ..." : ""));
        }
    }

    /** A sequence with its last two stages left out, or one twiddle changed, gives a different result. */
    @Test
    void aWrongLaunchOrTableIsCaught() throws Exception {
        Path program = program("ntt_host_test");
        PrimeField f = PairingCurve.BN254.fr();
        int logN = 6;
        Random rnd = new Random(7);
        long[] a = random(f, 1 << logN, rnd);
        long[] expected = a.clone();
        Ntt.of(f, logN).forward(expected);
        List<Launch> full = NttPlan.launches(Op.FORWARD, logN, 2);
        String prefix = NttPlan.kernelPrefix(f);
        String right = new Script().field(prefix).buffer("a", a).buffer("tw", NttPlan.twiddles(f, logN))
                .launches(full).out("a").toString();
        String missingStage = new Script().field(prefix).buffer("a", a).buffer("tw", NttPlan.twiddles(f, logN))
                .launches(full.subList(0, full.size() - 1)).out("a").toString();
        long[] tw = NttPlan.twiddles(f, logN);
        f.copy(f.one(), 0, tw, ((1 << (logN - 1)) - 1 + 1) * f.width()); // w_n^1 of the last stage -> 1
        String otherTable = new Script().field(prefix).buffer("a", a).buffer("tw", tw).launches(full).out("a")
                .toString();
        List<long[]> r = run(program, false, List.of(right, missingStage, otherTable));
        assertTrue(Arrays.equals(expected, r.get(0)), "the full sequence");
        assertFalse(Arrays.equals(expected, r.get(1)), "a stage left out");
        assertFalse(Arrays.equals(expected, r.get(2)), "a twiddle changed");
    }

    private static String hex(long[] w, int from, int count) {
        StringBuilder sb = new StringBuilder();
        for (int k = from; k < Math.min(w.length, from + count); k++) {
            sb.append(sb.isEmpty() ? "" : " ").append(String.format("%016x", w[k]));
        }
        return sb.toString();
    }
}
