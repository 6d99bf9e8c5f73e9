package dev.proofline.engine.groth16;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.ProverBackend;
import dev.proofline.engine.SimBackend;
import dev.proofline.groth16.Proof;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The simulated prover ({@link SimBackend}: it sleeps instead of proving, and fails where asked) with a
 * Groth16 backend's result type, for the places that take only such a backend (the daemon, whose engine
 * is an {@code Engine<ProofResult>}): each partition's result is {@link #PLACEHOLDER}, a proof of well-formed
 * points that proves nothing (BN254's generators, no public signals). In this module's test jar, beside
 * {@link SimBackend}, shared with the daemon's tests and the lab, and so in no jar an application gets.
 */
public final class SimulatedProofs implements ProverBackend<Object, Object, ProofResult> {

    /** What every partition proves to: A and C are G1's generator, B is G2's; it verifies against no key. */
    public static final ProofResult PLACEHOLDER = new ProofResult(new Proof(PairingCurve.BN254,
            PairingCurve.BN254.g1().generator(), PairingCurve.BN254.g2().generator(),
            PairingCurve.BN254.g1().generator()), List.of());

    private final SimBackend sim;

    /** As {@link SimBackend#SimBackend(long, long, IntPredicate)}. */
    public SimulatedProofs(long startMillis, long finishMillis, IntPredicate failStart) {
        this.sim = new SimBackend(startMillis, finishMillis, failStart);
    }

    /** A prover that never fails. */
    public SimulatedProofs(long startMillis, long finishMillis) {
        this(startMillis, finishMillis, p -> false);
    }

    @Override
    public String name() {
        return sim.name();
    }

    @Override
    public List<String> devices() {
        return sim.devices();
    }

    @Override
    public Object start(Object prepared, int device) throws Exception {
        return sim.start(prepared, device);
    }

    @Override
    public ProofResult finish(Object started) throws Exception {
        sim.finish(started);
        return PLACEHOLDER;
    }
}
