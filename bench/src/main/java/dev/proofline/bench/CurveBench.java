package dev.proofline.bench;

import dev.proofline.algebra.curve.PointArithmetic;
import dev.proofline.algebra.curve.WeierstrassCurve;
import java.math.BigInteger;
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

/** G1 point operations: mixed addition (Jacobian + affine), the MSM bucket step, and doubling. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CurveBench {

    @Param({"bn254", "bls12381"})
    public String curve;

    private PointArithmetic g1;
    private long[] acc;
    private long[] affine;

    @Setup
    public void setup() {
        WeierstrassCurve c = Curves.valueOf(curve).g1;
        g1 = c.arithmetic();
        acc = new long[c.jacobianWidth()];
        g1.mulAffine(c.generator(), 0, BigInteger.valueOf(123456789), acc, 0);
        long[] j = new long[c.jacobianWidth()];
        g1.mulAffine(c.generator(), 0, BigInteger.valueOf(987654321), j, 0);
        affine = new long[c.affineWidth()];
        g1.toAffine(j, 0, affine, 0);
    }

    @Benchmark
    public long[] g1MixedAdd() {
        g1.addMixed(acc, 0, affine, 0, acc, 0);
        return acc;
    }

    @Benchmark
    public long[] g1Double() {
        g1.dbl(acc, 0, acc, 0);
        return acc;
    }
}
