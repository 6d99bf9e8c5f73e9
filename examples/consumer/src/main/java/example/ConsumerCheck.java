package example;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.engine.groth16.CircuitJob;
import dev.proofline.engine.groth16.CircuitProver;
import dev.proofline.engine.groth16.Circuits;
import dev.proofline.groth16.ProofWithSignals;
import dev.proofline.groth16.VerificationKey;
import dev.proofline.groth16.Verifier;
import dev.proofline.groth16.ZkeyProver;
import dev.proofline.groth16.io.SnarkjsJson;
import dev.proofline.groth16.setup.DevSetup;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.ConstraintSystem;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.gadgets.Num;
import dev.proofline.r1cs.gadgets.Poseidon;
import dev.proofline.r1cs.wasm.CircomInput;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Proves and verifies as an application would, with nothing but the artifacts Maven resolved from the
 * BOM: a circuit written in Java on the engine (with a development key made here), and, given the
 * directory of a circom fixture (multiplier.zkey, multiplier.wtns, multiplier_js/multiplier.wasm,
 * input.json, verification_key.json), that circuit's witness file with {@code ZkeyProver} and its inputs
 * on the engine, checked against snarkjs's verification key. Throws (exit 1) at the first failure.
 */
public final class ConsumerCheck {

    /** Knowledge of x, y with Poseidon(x, y) = h for a public h. */
    record PoseidonPreimage(BigInteger x, BigInteger y, BigInteger h) implements Circuit {
        static PoseidonPreimage of(long x, long y) {
            BigInteger bx = BigInteger.valueOf(x);
            BigInteger by = BigInteger.valueOf(y);
            return new PoseidonPreimage(bx, by, Poseidon.hash(PairingCurve.BN254, bx, by));
        }

        @Override
        public void synthesize(ConstraintSystem cs) {
            Num hash = Num.allocInput(cs, "h", h);
            Num.enforceEqual(cs, "h", Poseidon.hash(cs, Num.alloc(cs, "x", x), Num.alloc(cs, "y", y)), hash);
        }
    }

    private ConsumerCheck() {
    }

    public static void main(String[] args) throws IOException, InterruptedException, TimeoutException {
        javaCircuitOnTheEngine();
        if (args.length > 0) {
            circomFixture(Path.of(args[0]));
        }
    }

    private static void javaCircuitOnTheEngine() throws IOException, InterruptedException, TimeoutException {
        Path zkey = Files.createTempFile("consumer-poseidon", ".zkey");
        try {
            DevSetup.run(RecordingSystem.record(PairingCurve.BN254, PoseidonPreimage.of(0, 0)), zkey);
            try (CircuitProver prover = CircuitProver.start()) {
                prover.register(new Circuits.Java("poseidon", zkey, PairingCurve.BN254, PoseidonPreimage.of(0, 0)));
                List<ProofWithSignals> proofs = prover.prove("poseidon", List.of(
                        new CircuitJob.Instance(PoseidonPreimage.of(3, 4)),
                        new CircuitJob.Instance(PoseidonPreimage.of(5, 6))), Duration.ofMinutes(2));
                VerificationKey vk = prover.verificationKey("poseidon");
                expect(proofs.size() == 2, "two proofs, got " + proofs.size());
                expect(proofs.get(0).publicSignals().equals(List.of(PoseidonPreimage.of(3, 4).h())),
                        "the first proof's public signal is its hash");
                for (ProofWithSignals p : proofs) {
                    check("java circuit on the engine " + p.publicSignals(), p.verify(vk));
                }
            }
        } finally {
            Files.delete(zkey);
        }
    }

    private static void circomFixture(Path dir) throws IOException, InterruptedException, TimeoutException {
        VerificationKey snarkjsVk = SnarkjsJson.readVerificationKey(dir.resolve("verification_key.json"));
        List<BigInteger> snarkjsSignals = SnarkjsJson.readPublic(dir.resolve("public.json"));
        Path out = Files.createTempDirectory("consumer-proof");
        try (ZkeyProver prover = ZkeyProver.open(dir.resolve("multiplier.zkey"))) {
            ProofWithSignals proof = prover.prove(dir.resolve("multiplier.wtns"));
            proof.write(out.resolve("proof.json"), out.resolve("public.json"));
            ProofWithSignals read = ProofWithSignals.read(out.resolve("proof.json"), out.resolve("public.json"), null);
            expect(read.publicSignals().equals(snarkjsSignals), "snarkjs's public signals");
            check("zkey + wtns, its files, snarkjs's verification key", read.verify(snarkjsVk));
        } finally {
            Files.deleteIfExists(out.resolve("proof.json"));
            Files.deleteIfExists(out.resolve("public.json"));
            Files.delete(out);
        }
        // circom inputs: the witness generator (Chicory, compiled with ASM) runs in the engine's synthesis
        try (CircuitProver prover = CircuitProver.start()) {
            prover.register(new Circuits.Circom("multiplier", dir.resolve("multiplier.zkey"))
                    .withWasm(dir.resolve("multiplier_js/multiplier.wasm")));
            ProofWithSignals p = prover.prove("multiplier",
                    List.of(new CircuitJob.Inputs(CircomInput.read(dir.resolve("input.json")))), Duration.ofMinutes(2))
                    .get(0);
            expect(p.publicSignals().equals(snarkjsSignals), "snarkjs's public signals from the inputs");
            check("circom inputs on the engine, snarkjs's verification key", p.verify(snarkjsVk));
        }
    }

    private static void check(String what, Verifier.Result r) {
        expect(r.valid(), what + ": " + r.reason());
        System.out.println("OK " + what);
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("consumer check failed: " + what);
        }
    }
}
