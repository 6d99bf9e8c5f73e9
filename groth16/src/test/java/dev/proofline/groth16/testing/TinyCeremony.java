package dev.proofline.groth16.testing;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.groth16.ceremony.InitialKey;
import dev.proofline.groth16.ceremony.PhaseTwo;
import dev.proofline.groth16.ceremony.PhaseTwoPreparation;
import dev.proofline.groth16.ceremony.PowersOfTau;
import dev.proofline.r1cs.cs.Circuit;
import dev.proofline.r1cs.cs.RecordingSystem;
import dev.proofline.r1cs.cs.Variable;
import dev.proofline.r1cs.cs.WitnessSystem;
import dev.proofline.r1cs.io.R1csFile;
import dev.proofline.r1cs.io.WtnsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Two circuits of two constraints on BN254 and a ceremony of 2^4 for them, made in Java in about a
 * second (no Node): for tests of what reads a ceremony's files or checks a key against its r1cs and
 * ptau.
 */
public final class TinyCeremony {

    /** x^3 + 5 = out: two constraints, one public signal, terms in A, B and C. */
    public static final Circuit CUBE = cs -> {
        PrimeField fr = cs.field();
        Variable out = cs.allocInput("out", () -> fr.fromLong(32));
        Variable x = cs.alloc("x", () -> fr.fromLong(3));
        Variable sq = cs.alloc("sq", () -> fr.fromLong(9));
        cs.enforce("square", cs.lc().add(x), cs.lc().add(x), cs.lc().add(sq));
        cs.enforce("cube", cs.lc().add(sq), cs.lc().add(x), cs.lc().add(out).add(-5, cs.one()));
    };

    /** x * x = out: another circuit, with a key of the same shape as {@link #CUBE}'s. */
    public static final Circuit SQUARE = cs -> {
        PrimeField fr = cs.field();
        Variable out = cs.allocInput("out", () -> fr.fromLong(9));
        Variable x = cs.alloc("x", () -> fr.fromLong(3));
        Variable y = cs.alloc("y", () -> fr.fromLong(3));
        cs.enforce("square", cs.lc().add(x), cs.lc().add(y), cs.lc().add(out));
        cs.enforce("same", cs.lc().add(x), cs.lc().add(cs.one()), cs.lc().add(y));
    };

    private TinyCeremony() {
    }

    /** Writes a prepared powers of tau of 2^4 with one contribution to {@code ptau}; the files before it go in {@code scratch}. */
    public static void preparedPtau(Path scratch, Path ptau) throws IOException {
        Path p0 = scratch.resolve("p0.ptau");
        Path p1 = scratch.resolve("p1.ptau");
        PowersOfTau.newAccumulator(PairingCurve.BN254, 4, p0);
        PowersOfTau.contribute(p0, p1, "first", "entropy", m -> { });
        PhaseTwoPreparation.prepare(p1, ptau, m -> { });
    }

    /**
     * Writes {@code circuit}'s r1cs to {@code r1cs} and its key on {@code ptau}, with one contribution, to
     * {@code zkey}; the initial key goes in {@code scratch}.
     */
    public static void key(Circuit circuit, Path ptau, Path r1cs, Path zkey, Path scratch) throws IOException {
        Files.write(r1cs, R1csFile.write(RecordingSystem.record(PairingCurve.BN254, circuit)));
        Path initial = scratch.resolve(zkey.getFileName() + ".initial");
        InitialKey.create(r1cs, ptau, initial, m -> { });
        PhaseTwo.contribute(initial, zkey, "mine", "entropy", m -> { });
    }

    /**
     * In {@code dir}: a prepared {@code final.ptau} (returned), and for the circuits cube and square their
     * r1cs and a key with one contribution ({@code cube.r1cs}, {@code cube.zkey}, ...), with their
     * witnesses ({@code cube.wtns}, ...) where {@code witnesses}.
     */
    public static Path cubeAndSquare(Path dir, boolean witnesses) throws IOException {
        Path ptau = dir.resolve("final.ptau");
        preparedPtau(dir, ptau);
        for (var c : java.util.Map.of("cube", CUBE, "square", SQUARE).entrySet()) {
            key(c.getValue(), ptau, dir.resolve(c.getKey() + ".r1cs"), dir.resolve(c.getKey() + ".zkey"), dir);
            if (witnesses) {
                witness(c.getValue(), dir.resolve(c.getKey() + ".wtns"));
            }
        }
        return ptau;
    }

    /** Writes {@code circuit}'s witness to {@code wtns}. */
    public static void witness(Circuit circuit, Path wtns) throws IOException {
        Files.write(wtns, WtnsFile.write(WitnessSystem.witness(PairingCurve.BN254, circuit)));
    }
}
