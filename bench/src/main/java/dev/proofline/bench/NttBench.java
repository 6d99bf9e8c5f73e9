package dev.proofline.bench;

import dev.proofline.algebra.Samples;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
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

/** Forward NTT over Fr at 2^16, 2^20, 2^22, in place (the transform of a transform is as costly). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "--add-modules", "jdk.incubator.vector"})
public class NttBench {

    @Param({"bn254", "bls12381"})
    public String curve;

    @Param({"16", "20", "22"})
    public int log;

    private Ntt ntt;
    private long[] a;

    @Setup
    public void setup() {
        PrimeField fr = Curves.valueOf(curve).fr;
        Ntt.warmUp(fr);
        ntt = Ntt.of(fr, log);
        a = Samples.fieldElements(fr, 1 << log, 9);
    }

    @Benchmark
    public long[] forward() {
        ntt.forward(a);
        return a;
    }
}
