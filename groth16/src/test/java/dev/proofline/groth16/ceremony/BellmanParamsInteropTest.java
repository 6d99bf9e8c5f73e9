package dev.proofline.groth16.ceremony;

import static dev.proofline.groth16.ceremony.ZkeyCeremonyInteropTest.ptau;
import static dev.proofline.groth16.ceremony.ZkeyCeremonyInteropTest.s;
import static dev.proofline.groth16.ceremony.ZkeyCeremonyInteropTest.snarkjs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.groth16.testing.CircomFixtures;
import dev.proofline.groth16.testing.CircomFixtures.Fixture;
import dev.proofline.r1cs.io.FormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code zkey export bellman}, {@code zkey import bellman} and {@code zkey bellman contribute} against
 * snarkjs 0.7.6, both curves: the exported MPC parameters byte for byte, a contribution made to them
 * by snarkjs's own bellman contributor imported into the same key as snarkjs imports it, and ours
 * imported and verified by snarkjs, before and after theirs.
 */
class BellmanParamsInteropTest {

    @TempDir
    Path dir;

    static Stream<String> curves() {
        return ZkeyCeremonyInteropTest.curves();
    }

    /** A circuit with public signals, zero points in A and B, a domain of several points: poseidon. */
    private Path contributedKey(String curve, Fixture fx) throws IOException {
        Path k0 = dir.resolve("k0.zkey");
        Path k1 = dir.resolve("k1.zkey");
        InitialKey.create(fx.r1cs(), ptau(curve, 10), k0, m -> { });
        snarkjs("zkey", "contribute", s(k0), s(k1), "--name=theirs", "-e=their entropy");
        return k1;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void exportIsByteIdenticalToSnarkjs(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path k1 = contributedKey(curve, fx);
        Path ours = dir.resolve("ours.mpcparams");
        Path theirs = dir.resolve("theirs.mpcparams");
        BellmanParams.export(k1, ours, m -> { });
        snarkjs("zkey", "export", "bellman", s(k1), s(theirs));
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void aBellmanContributionImportsAsSnarkjsImportsItAndVerifies(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path k1 = contributedKey(curve, fx);
        Path params = dir.resolve("k1.mpcparams");
        Path response = dir.resolve("response.mpcparams");
        BellmanParams.export(k1, params, m -> { });
        snarkjs("zkey", "bellman", "contribute", curve, s(params), s(response), "-e=bellman entropy");
        Path ours = dir.resolve("ours.zkey");
        Path theirs = dir.resolve("theirs.zkey");
        assertEquals(1, BellmanParams.importParams(k1, response, ours, "bellman", m -> { }));
        snarkjs("zkey", "import", "bellman", s(k1), s(response), s(theirs), "--name=bellman");
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");

        CircomFixtures.SnarkjsRun verified = snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau(curve, 10)), s(ours));
        assertTrue(verified.output().contains("ZKey Ok!"), verified.output());
        long fallbacks = ZkeyVerifier.LOWER_DEGREE_CHECKS.get();
        List<String> report = ZkeyVerifier.verify(fx.r1cs(), ptau(curve, 10), ours, m -> { });
        assertEquals("ZKey Ok!", report.getLast());
        assertEquals(fallbacks + 1, ZkeyVerifier.LOWER_DEGREE_CHECKS.get(),
                "H, zero at degree n - 1, was accepted by the check of its lower degrees");

        // its H with two points swapped is refused, by both
        byte[] whole = Files.readAllBytes(ours);
        int g = pointBytes(curve, false);
        byte[] first;
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(ours)) {
            first = key.section(PhaseTwoKeyFile.H).asSlice(0, 2L * g).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
        int at = indexOf(whole, first);
        System.arraycopy(first, g, whole, at, g);
        System.arraycopy(first, 0, whole, at + g, g);
        Path swapped = dir.resolve("swapped.zkey");
        Files.write(swapped, whole);
        var e = assertThrows(FormatException.class, () -> ZkeyVerifier.verify(fx.r1cs(), ptau(curve, 10), swapped,
                m -> { }));
        assertTrue(e.getMessage().contains("section 9"), e.getMessage());
        CircomFixtures.SnarkjsRun r = CircomFixtures.snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau(curve, 10)),
                s(swapped));
        assertFalse(r.output().contains("ZKey Ok!"), r.output());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void ourBellmanContributionImportsIntoSnarkjsWhichVerifiesItAndListsItsHash(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path k1 = contributedKey(curve, fx);
        Path params = dir.resolve("k1.mpcparams");
        Path response = dir.resolve("response.mpcparams");
        BellmanParams.export(k1, params, m -> { });
        byte[] hash = BellmanContribution.contribute(pairingCurve(curve), params, response, "our entropy", m -> { });
        assertEquals(Files.size(params) + contributionBytes(curve), Files.size(response));

        Path theirs = dir.resolve("theirs.zkey");
        Path ours = dir.resolve("ours.zkey");
        snarkjs("zkey", "import", "bellman", s(k1), s(response), s(theirs), "--name=ours");
        assertEquals(1, BellmanParams.importParams(k1, response, ours, "ours", m -> { }));
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
        bothVerifyListing(curve, fx, theirs, HexFormatting.hashBlock("contribution #2 ours:", hash));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void ourBellmanContributionBetweenTwoOfSnarkjsImportsAndBothVerifyTheChain(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path k1 = contributedKey(curve, fx);
        Path p1 = dir.resolve("k1.mpcparams");
        Path p2 = dir.resolve("k2.mpcparams");
        Path p3 = dir.resolve("k3.mpcparams");
        Path p4 = dir.resolve("k4.mpcparams");
        BellmanParams.export(k1, p1, m -> { });
        snarkjs("zkey", "bellman", "contribute", curve, s(p1), s(p2), "-e=their entropy");
        byte[] hash = BellmanContribution.contribute(pairingCurve(curve), p2, p3, "our entropy", m -> { });
        snarkjs("zkey", "bellman", "contribute", curve, s(p3), s(p4), "-e=their entropy again");

        Path ours = dir.resolve("ours.zkey");
        Path theirs = dir.resolve("theirs.zkey");
        assertEquals(3, BellmanParams.importParams(k1, p4, ours, "bellman", m -> { }));
        snarkjs("zkey", "import", "bellman", s(k1), s(p4), s(theirs), "--name=bellman");
        assertEquals(-1L, Files.mismatch(ours, theirs), "first differing byte");
        bothVerifyListing(curve, fx, ours, HexFormatting.hashBlock("contribution #3 bellman:", hash));
    }

    /** snarkjs's zkey verify and ours accept {@code key} of the fixture's circuit, and list {@code listed}. */
    private static void bothVerifyListing(String curve, Fixture fx, Path key, String listed) throws IOException {
        CircomFixtures.SnarkjsRun verified = snarkjs("zkey", "verify", s(fx.r1cs()), s(ptau(curve, 10)), s(key));
        assertTrue(verified.output().contains("ZKey Ok!") && verified.output().contains(listed), verified.output());
        List<String> report = ZkeyVerifier.verify(fx.r1cs(), ptau(curve, 10), key, m -> { });
        assertEquals("ZKey Ok!", report.getLast());
        assertTrue(String.join("\n", report).contains(listed), String.join("\n", report));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void aTruncatedChallengeOrOneOfTheOtherCurveIsRefusedNamingTheFileAndNoResponseIsWritten(String curve)
            throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path k1 = contributedKey(curve, fx);
        Path params = dir.resolve("k1.mpcparams");
        BellmanParams.export(k1, params, m -> { });
        byte[] whole = Files.readAllBytes(params);
        Path bad = dir.resolve("bad.mpcparams");
        Path response = dir.resolve("response.mpcparams");
        PairingCurve c = pairingCurve(curve);

        Files.write(bad, Arrays.copyOf(whole, whole.length - 7));
        FormatException e = assertThrows(FormatException.class, () -> BellmanContribution.contribute(c, bad, response,
                "", m -> { }));
        assertTrue(e.getMessage().startsWith(bad + ": ") && e.getMessage().contains("truncated"), e.getMessage());
        Files.write(bad, Arrays.copyOf(whole, 100));
        e = assertThrows(FormatException.class, () -> BellmanContribution.contribute(c, bad, response, "", m -> { }));
        assertTrue(e.getMessage().startsWith(bad + ": ") && e.getMessage().contains("truncated"), e.getMessage());

        PairingCurve other = c == PairingCurve.BN254 ? PairingCurve.BLS12_381 : PairingCurve.BN254;
        e = assertThrows(FormatException.class, () -> BellmanContribution.contribute(other, params, response, "",
                m -> { }));
        assertTrue(e.getMessage().startsWith(params + ": alpha1: ") && e.getMessage().contains("another curve"),
                e.getMessage());

        // a point of L that is not on the curve stops the work half way
        int g1 = pointBytes(curve, false);
        int g2 = pointBytes(curve, true);
        int nPublic;
        int n;
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(k1)) {
            nPublic = key.nPublic;
            n = key.domainSize;
        }
        byte[] changed = whole.clone();
        int lFirst = 3 * g1 + 3 * g2 + 4 + (nPublic + 1) * g1 + 4 + (n - 1) * g1 + 4;
        changed[lFirst + g1 - 1] ^= 1;
        Files.write(bad, changed);
        e = assertThrows(FormatException.class, () -> BellmanContribution.contribute(c, bad, response, "", m -> { }));
        assertTrue(e.getMessage().startsWith(bad + ": L point #0: not a point"), e.getMessage());
        assertFalse(Files.exists(response) || Files.exists(dir.resolve("response.mpcparams.partial")),
                "no response is left behind");
    }

    private static PairingCurve pairingCurve(String curve) {
        return PairingCurve.bySnarkjsName(curve).orElseThrow();
    }

    private static int indexOf(byte[] in, byte[] what) {
        for (int i = 0; i + what.length <= in.length; i++) {
            if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("curves")
    void paramsThatDoNotContinueTheKeyAreRefusedNamingTheFieldAndNoKeyIsWritten(String curve) throws IOException {
        Fixture fx = CircomFixtures.build(curve, "poseidon");
        Path k1 = contributedKey(curve, fx);
        Path params = dir.resolve("k1.mpcparams");
        BellmanParams.export(k1, params, m -> { });
        byte[] whole = Files.readAllBytes(params);
        Path out = dir.resolve("out.zkey");

        // another key of the same circuit: its first contribution is not k1's
        Path k0 = dir.resolve("k0.zkey");
        Path other = dir.resolve("other.zkey");
        PhaseTwo.contribute(k0, other, "other", "other entropy", m -> { });
        var e = assertThrows(FormatException.class, () -> BellmanParams.importParams(other, params, out, null,
                m -> { }));
        assertTrue(e.getMessage().startsWith(params.toString()) && e.getMessage().contains("contribution #1"),
                e.getMessage());

        // the circuit hash changed
        int each = 64 + 4 + contributionBytes(curve);
        byte[] changed = whole.clone();
        changed[whole.length - each] ^= 1;
        Path bad = dir.resolve("bad.mpcparams");
        Files.write(bad, changed);
        e = assertThrows(FormatException.class, () -> BellmanParams.importParams(k1, bad, out, null, m -> { }));
        assertTrue(e.getMessage().contains("circuit hash"), e.getMessage());

        // cut short, and with bytes after the last contribution
        Files.write(bad, Arrays.copyOf(whole, whole.length - 7));
        e = assertThrows(FormatException.class, () -> BellmanParams.importParams(k1, bad, out, null, m -> { }));
        assertTrue(e.getMessage().startsWith(bad.toString()) && e.getMessage().contains("truncated"),
                e.getMessage());
        Files.write(bad, Arrays.copyOf(whole, whole.length + 3));
        e = assertThrows(FormatException.class, () -> BellmanParams.importParams(k1, bad, out, null, m -> { }));
        assertTrue(e.getMessage().contains("3 bytes after"), e.getMessage());

        // a point of H that is not on the curve
        changed = whole.clone();
        int g1 = pointBytes(curve, false);
        int g2 = pointBytes(curve, true);
        int nPublic;
        try (PhaseTwoKeyFile key = PhaseTwoKeyFile.open(k1)) {
            nPublic = key.nPublic;
        }
        int hFirst = 3 * g1 + 3 * g2 + 4 + (nPublic + 1) * g1 + 4;
        changed[hFirst + g1 - 1] ^= 1;
        Files.write(bad, changed);
        e = assertThrows(FormatException.class, () -> BellmanParams.importParams(k1, bad, out, null, m -> { }));
        assertTrue(e.getMessage().contains("H point #0"), e.getMessage());
        assertFalse(Files.exists(out), "no key is left behind");
    }

    private static int pointBytes(String curve, boolean g2) {
        int n8 = curve.equals(CircomFixtures.BN128) ? 32 : 48;
        return (g2 ? 4 : 2) * n8;
    }

    /** One contribution's record in the format: three G1 points, a G2 point, the transcript. */
    private static int contributionBytes(String curve) {
        return 3 * pointBytes(curve, false) + pointBytes(curve, true) + 64;
    }
}
