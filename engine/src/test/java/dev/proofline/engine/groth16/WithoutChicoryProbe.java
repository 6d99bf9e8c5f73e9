package dev.proofline.engine.groth16;

import dev.proofline.groth16.ProofWithSignals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Runs in {@link WithoutChicoryTest}'s class loader, which has the engine and everything it depends on
 * except Chicory and ASM: what an application that excluded them sees. Each method returns what
 * happened as text (the loader shares no classes but the JDK's with the test).
 */
public final class WithoutChicoryProbe {

    private WithoutChicoryProbe() {
    }

    /** Registers a circom circuit with its witness generator: "registered", or the exception. */
    public static String registerWithWasm(String zkey, String wasm) {
        try (CircuitProver prover = CircuitProver.start()) {
            prover.register(new Circuits.Circom("multiplier", Path.of(zkey)).withWasm(Path.of(wasm)));
            return "registered";
        } catch (RuntimeException | LinkageError e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    /** Proves a witness file on a circuit registered without its witness generator: the signals, or the exception. */
    public static String proveWtns(String zkey, String wtns) {
        try (CircuitProver prover = CircuitProver.start()) {
            prover.register(new Circuits.Circom("multiplier", Path.of(zkey)));
            List<ProofWithSignals> proofs = prover.prove("multiplier",
                    List.of(new CircuitJob.Wtns(Files.readAllBytes(Path.of(wtns)))), Duration.ofMinutes(2));
            return proofs.get(0).verify(prover.verificationKey("multiplier")).valid()
                    ? proofs.get(0).publicSignals().toString() : "invalid";
        } catch (Exception | LinkageError e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }
}
