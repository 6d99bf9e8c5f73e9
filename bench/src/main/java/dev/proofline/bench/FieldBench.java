package dev.proofline.bench;

import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;
import java.util.Random;
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

/**
 * One Montgomery multiplication in Fp and in Fr. The result feeds the next multiplication, so this
 * measures latency of a dependent chain (what the curve formulas see), not throughput. And one
 * inversion in Fp three ways: the divstep inversion the MSM's batches use ({@code invVartime}),
 * {@link BigInteger#modInverse} with the conversions around it, and Fermat's a^(q-2) ({@code inv}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FieldBench {

    @Param({"bn254", "bls12381"})
    public String curve;

    private PrimeField fp;
    private PrimeField fr;
    private long[] a;
    private long[] b;
    private long[] c;
    private long[] d;

    @Setup
    public void setup() {
        Curves cv = Curves.valueOf(curve);
        fp = cv.fp;
        fr = cv.fr;
        Random rnd = new Random(1);
        a = fp.fromBigInteger(new BigInteger(fp.bits() + 8, rnd));
        b = fp.fromBigInteger(new BigInteger(fp.bits() + 8, rnd));
        c = fr.fromBigInteger(new BigInteger(fr.bits() + 8, rnd));
        d = fr.fromBigInteger(new BigInteger(fr.bits() + 8, rnd));
    }

    @Benchmark
    public long[] fpMul() {
        fp.mul(a, 0, b, 0, a, 0);
        return a;
    }

    @Benchmark
    public long[] frMul() {
        fr.mul(c, 0, d, 0, c, 0);
        return c;
    }

    @Benchmark
    public long[] fpInvDivsteps() {
        fp.invVartime(b, 0, b, 0);
        return b;
    }

    @Benchmark
    public long[] fpInvBigInteger() {
        fp.fromBigInteger(fp.toBigInteger(b, 0).modInverse(fp.modulus()), b, 0);
        return b;
    }

    @Benchmark
    public long[] fpInvFermat() {
        fp.inv(b, 0, b, 0);
        return b;
    }

    @Benchmark
    public long[] fpSqr() {
        fp.sqr(b, 0, b, 0);
        return b;
    }
}
