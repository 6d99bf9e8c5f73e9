package dev.proofline.bench;

import dev.proofline.algebra.Samples;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.msm.Msm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** G1 MSM at 2^16, 2^18, 2^20 and G2 MSM at 2^16, all cores, both curves. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "--add-modules", "jdk.incubator.vector"})
public class MsmBench {

    /** The inputs of one MSM: bases G, 2G, ..., nG and scalars below 2^253. */
    public abstract static class Input {
        Msm msm;
        long[] points;
        long[] scalars;

        void prepare(WeierstrassCurve c, int log) {
            Msm.warmUp(c); // the 8-lane additions, where there are some, compiled before the first run
            msm = Msm.on(c);
            points = Samples.generatorMultiples(c, 1 << log);
            scalars = Samples.scalarWords(1 << log, 253, 7);
        }
    }

    @State(Scope.Benchmark)
    public static class G1 extends Input {
        @Param({"bn254", "bls12381"})
        public String curve;

        @Param({"16", "18", "20"})
        public int log;

        @Setup
        public void setup() {
            prepare(Curves.valueOf(curve).g1, log);
        }
    }

    @State(Scope.Benchmark)
    public static class G2 extends Input {
        @Param({"bn254", "bls12381"})
        public String curve;

        @Param({"16"})
        public int log;

        @Setup
        public void setup() {
            prepare(Curves.valueOf(curve).g2, log);
        }
    }

    @Benchmark
    public long[] g1(G1 s) {
        return s.msm.multiply(s.points, s.scalars);
    }

    @Benchmark
    public long[] g2(G2 s) {
        return s.msm.multiply(s.points, s.scalars);
    }
}
