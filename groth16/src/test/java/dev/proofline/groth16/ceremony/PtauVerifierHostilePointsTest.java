package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.curve.WeierstrassCurve;
import dev.proofline.algebra.encoding.CurveGroup;
import dev.proofline.algebra.encoding.SnarkjsBinaryCodec;
import dev.proofline.algebra.testing.TestPoints;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A contributed file with one point replaced: a point on the curve but outside the subgroup of order r
 * (the pairing checks cannot see such a point's cofactor part, so only the per-point check refuses it),
 * or a point off the curve. Each is refused naming the file, the section and the point.
 */
class PtauVerifierHostilePointsTest {

    @TempDir
    Path dir;

    private Path good;   // made once per test

    private Path contributed(PairingCurve curve) throws IOException {
        if (good == null) {
            Path p0 = dir.resolve("p0.ptau");
            good = dir.resolve("p1.ptau");
            PowersOfTau.newAccumulator(curve, 3, p0);
            PowersOfTau.contribute(p0, good, "a", "entropy a", m -> { });
        }
        return good;
    }

    /** The contributed file of 2^3 after prepare phase2 (made once per test). */
    private Path prepared(PairingCurve curve) throws IOException {
        if (prepared == null) {
            prepared = dir.resolve("prepared.ptau");
            PhaseTwoPreparation.prepare(contributed(curve), prepared, m -> { });
        }
        return prepared;
    }

    private Path prepared;

    /** The file with point #index of a section replaced by the stored form of {@code point}. */
    private Path withPoint(PairingCurve curve, int section, CurveGroup group, int index, long[] point, String name)
            throws IOException {
        return withPoint(contributed(curve), section, group, index, point, name);
    }

    private Path withPoint(Path file, int section, CurveGroup group, int index, long[] point, String name)
            throws IOException {
        byte[] whole = Files.readAllBytes(file);
        long at;
        try (PtauFile f = PtauFile.open(file)) {
            at = f.section(section).address() - f.binFile().whole().address();
        }
        SnarkjsBinaryCodec codec = SnarkjsBinaryCodec.of(group);
        byte[] stored = codec.encode(point, 0);
        System.arraycopy(stored, 0, whole, Math.toIntExact(at + (long) index * codec.pointBytes()), stored.length);
        Path out = dir.resolve(name);
        Files.write(out, whole);
        return out;
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void theUntouchedFileIsAccepted(PairingCurve curve) throws IOException {
        assertEquals(1, PtauVerifier.verify(contributed(curve), m -> { }).size());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aTauG2PointOutsideTheSubgroupIsRefused(PairingCurve curve) throws IOException {
        WeierstrassCurve c = curve.g2();
        long[] outside = TestPoints.hashToCurvePoint(c, "ptau outside G2");
        Path bad = withPoint(curve, PtauFile.TAU_G2, curve.g2Group(), 2, outside, "g2.ptau");
        var e = assertThrows(FormatException.class, () -> PtauVerifier.verify(bad, m -> { }));
        assertTrue(e.getMessage().contains("g2.ptau") && e.getMessage().contains("point #2")
                && e.getMessage().contains("not in the subgroup of order r"), e.getMessage());
    }

    @Test
    void aBls12381TauG1PointOutsideTheSubgroupIsRefused() throws IOException {
        PairingCurve curve = PairingCurve.BLS12_381;
        long[] outside = TestPoints.hashToCurvePoint(curve.g1(), "ptau outside G1");
        Path bad = withPoint(curve, PtauFile.TAU_G1, curve.g1Group(), 5, outside, "g1.ptau");
        var e = assertThrows(FormatException.class, () -> PtauVerifier.verify(bad, m -> { }));
        assertTrue(e.getMessage().contains("g1.ptau") && e.getMessage().contains("point #5")
                && e.getMessage().contains("not in the subgroup of order r"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aPointOffTheCurveIsRefused(PairingCurve curve) throws IOException {
        long[] g = curve.g1().generator().clone();
        long[] offCurve = g.clone();
        offCurve[0] ^= 1;   // x moved, y kept
        Path bad = withPoint(curve, PtauFile.ALPHA_TAU_G1, curve.g1Group(), 1, offCurve, "off.ptau");
        var e = assertThrows(FormatException.class, () -> PtauVerifier.verify(bad, m -> { }));
        assertTrue(e.getMessage().contains("off.ptau") && e.getMessage().contains("point #1")
                && e.getMessage().contains("not on the curve"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void thePreparedFileIsAccepted(PairingCurve curve) throws IOException {
        assertEquals(1, PtauVerifier.verify(prepared(curve), m -> { }).size());
    }

    /**
     * A Lagrange point replaced by another point of the subgroup (twice the generator): every point passes its
     * own checks, and the domain's random combination refuses the file. Domain 2^p's points are at
     * 2^p - 1 .. 2^(p+1) - 2 of a Lagrange section; tau G1's has domains up to 2^4 for a ptau of 2^3.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
        "BN254, 12, 0, 0", "BN254, 12, 4, 20", "BLS12_381, 12, 1, 2", "BLS12_381, 13, 3, 9",
        "BN254, 14, 2, 4", "BLS12_381, 15, 3, 14"})
    void aLagrangePointThatIsNotTheBasisIsRefused(PairingCurve curve, int section, int domain, int index)
            throws IOException {
        CurveGroup group = section == PtauFile.LAGRANGE_TAU_G2 ? curve.g2Group() : curve.g1Group();
        WeierstrassCurve c = section == PtauFile.LAGRANGE_TAU_G2 ? curve.g2() : curve.g1();
        long[] twice = new long[c.jacobianWidth()];
        c.arithmetic().fromAffine(c.generator(), 0, twice, 0);
        c.arithmetic().dbl(twice, 0, twice, 0);
        long[] point = new long[c.affineWidth()];
        c.arithmetic().toAffine(twice, 0, point, 0);
        Path bad = withPoint(prepared(curve), section, group, index, point, "lagrange.ptau");
        var e = assertThrows(FormatException.class, () -> PtauVerifier.verify(bad, m -> { }));
        assertTrue(e.getMessage().contains("lagrange.ptau")
                && e.getMessage().contains("domain 2^" + domain + " are not the Lagrange basis"), e.getMessage());
    }
}
