package dev.proofline.engine;

import dev.proofline.groth16.ProvingKey;
import dev.proofline.r1cs.Witness;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.pce.Pce;
import java.util.List;

/**
 * A job of Java-circuit partitions on the PCE path: instances of one circuit shape (one per
 * partition), whose matrices the PCE holds and whose key is given. Synthesis computes the witness
 * only, then a, b, c by the PCE's sparse products, for the {@link CpuBackend}.
 */
public final class PceJob implements JobSpec {

    private final ProvingKey key;
    private final Pce pce;
    private final List<? extends Circuit> instances;

    public PceJob(ProvingKey key, Pce pce, List<? extends Circuit> instances) {
        this.key = key;
        this.pce = pce;
        this.instances = List.copyOf(instances);
    }

    @Override
    public int partitions() {
        return instances.size();
    }

    @Override
    public long workingSetBytes(int p) {
        return CpuBackend.workingSetBytes(key);
    }

    @Override
    public Object synthesize(int p) {
        Witness w = WitnessSystem.witness(key.curve(), instances.get(p));
        Pce.Evaluation abc = pce.evaluate(w);
        return new CpuBackend.Synthesized(key, w, abc.a(), abc.b(), abc.c());
    }
}
