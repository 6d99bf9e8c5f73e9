package dev.proofline.cli;

import dev.proofline.algebra.Samples;
import dev.proofline.algebra.bn254.Bn254;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.msm.Msm;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A one-off proving command's start, put to use: while the main thread parses the command line
 * (picocli's first use takes a cold process about 120 ms of one core: its classes are too old a
 * format for the JVM's start-up cache), a second thread runs the scalar kernels a BN254 proof runs
 * first (a small NTT and the MSM over mapped points, dense and 0/1 scalars) until the command begins
 * its work, so that the JIT has counted them, and compiled some, by then. It only ever runs on a
 * machine with a core to spare, and it stops at {@link #end} after the step it is in (an NTT or an
 * MSM of 256 elements).
 */
final class StartUpWarmUp {

    private static final int LOG = 8;
    private static volatile boolean stop;
    private static volatile Thread thread;

    private StartUpWarmUp() {
    }

    /** Starts the warm-up for a command that proves; nothing for the others or on one core. */
    static void begin(String[] args) {
        if (args.length == 0 || !(args[0].equals("prove") || args[0].equals("fullprove"))
                || Runtime.getRuntime().availableProcessors() < 2) {
            return;
        }
        Thread t = new Thread(StartUpWarmUp::run, "proofline-start-up-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        thread = t;
        t.start();
    }

    /** The warm-up's thread, or null when none was started (for tests). */
    static Thread thread() {
        return thread;
    }

    /** The command's work begins: the warm-up stops after its current step. */
    static void end() {
        stop = true;
    }

    private static void run() {
        try (Arena arena = Arena.ofConfined()) {
            int n = 1 << LOG;
            PrimeField fr = Bn254.FR;
            long[] affine = Samples.generatorMultiples(Bn254.G1, n);
            MemorySegment points = arena.allocate((long) affine.length * Long.BYTES, 8);
            MemorySegment.copy(affine, 0, points, ValueLayout.JAVA_LONG, 0, affine.length);
            long[] dense = Samples.scalarWords(n, 253, 1);
            long[] bits = new long[dense.length];
            for (int i = 0; i < n; i++) {
                bits[i * Msm.SCALAR_WORDS] = dense[i * Msm.SCALAR_WORDS] & 1;
            }
            Ntt ntt = Ntt.of(fr, LOG);
            long[] g = RootsOfUnity.snarkjsCosetShift(fr, LOG);
            long[] v = new long[n * fr.width()];
            for (int i = 0; i < n; i++) {
                fr.copy(fr.fromLong(i + 1), 0, v, i * fr.width());
            }
            Msm msm = Msm.on(Bn254.G1).withParallelism(1);
            for (int round = 0; !stop; round++) {
                switch (round % 3) {
                    case 0 -> ntt.evaluationsOnCoset(v, g, 0);
                    case 1 -> msm.multiply(points, 0, dense, 0, n);
                    default -> msm.multiply(points, 0, bits, 0, n);
                }
            }
        } catch (RuntimeException | Error e) {
            // a warm-up that fails changes nothing: the command runs as it would have
        }
    }
}
