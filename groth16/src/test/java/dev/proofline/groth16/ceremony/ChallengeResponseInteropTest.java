package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.testing.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A contribution made outside the .ptau format, against snarkjs 0.7.6 on both curves: our challenge is
 * snarkjs's byte for byte, a response that snarkjs's {@code challenge contribute} wrote imports into
 * the same .ptau as snarkjs's {@code import response} writes, and that file passes snarkjs's verify.
 */
class ChallengeResponseInteropTest {

    @TempDir
    Path dir;

    private static String s(Path p) {
        return p.toAbsolutePath().toString();
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void aResponseFromSnarkjsImportsAsSnarkjsImportsIt(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        Node.snarkjs("powersoftau", "new", curve.snarkjsName(), "4", s(p0));
        Node.snarkjs("powersoftau", "contribute", s(p0), s(p1), "--name=first", "-e=first entropy");

        // before any contribution and after one
        for (Path ptau : new Path[] {p0, p1}) {
            Path ours = dir.resolve("ours-" + ptau.getFileName() + ".challenge");
            Path theirs = dir.resolve("theirs-" + ptau.getFileName() + ".challenge");
            ChallengeResponse.exportChallenge(ptau, ours, m -> { });
            Node.snarkjs("powersoftau", "export", "challenge", s(ptau), s(theirs));
            assertEquals(-1L, Files.mismatch(ours, theirs), ptau + ": first byte where the challenges differ");
        }

        Path challenge = dir.resolve("ours-p1.ptau.challenge");
        Path response = dir.resolve("response");
        Node.snarkjs("powersoftau", "challenge", "contribute", curve.snarkjsName(), s(challenge), s(response),
                "-e=second entropy");
        Path ours = dir.resolve("ours.ptau");
        Path theirs = dir.resolve("theirs.ptau");
        PowersOfTau.Result r = ChallengeResponse.importResponse(p1, response, ours, "second", m -> { });
        Node.snarkjs("powersoftau", "import", "response", s(p1), s(response), s(theirs), "--name=second");
        assertEquals(-1L, Files.mismatch(ours, theirs), "first byte where the imported .ptau files differ");
        try (PtauFile f = PtauFile.open(ours)) {
            assertTrue(Arrays.equals(r.nextChallenge(), f.contributions().getLast().nextChallenge()));
        }
        Node.snarkjs("powersoftau", "verify", s(ours));
        assertEquals(2, PtauVerifier.verify(ours, m -> { }).size());
    }

    @ParameterizedTest
    @EnumSource(PairingCurve.class)
    void responsesThatDoNotFitAreRefusedNamingTheFile(PairingCurve curve) throws IOException {
        Path p0 = dir.resolve("p0.ptau");
        Path p1 = dir.resolve("p1.ptau");
        PowersOfTau.newAccumulator(curve, 3, p0);
        PowersOfTau.contribute(p0, p1, "first", "entropy", m -> { });
        Path challenge = dir.resolve("challenge");
        ChallengeResponse.exportChallenge(p0, challenge, m -> { });
        Path response = dir.resolve("response");
        Node.snarkjs("powersoftau", "challenge", "contribute", curve.snarkjsName(), s(challenge), s(response),
                "-e=entropy");
        byte[] good = Files.readAllBytes(response);
        Path out = dir.resolve("out.ptau");

        // it answers p0's challenge, not p1's
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> ChallengeResponse.importResponse(p1, response, out, null, m -> { }));
        assertTrue(other.getMessage().contains(response.toString()) && other.getMessage().contains("answers"),
                other.getMessage());

        Path cut = dir.resolve("cut");
        Files.write(cut, Arrays.copyOf(good, good.length - 1));
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> ChallengeResponse.importResponse(p0, cut, out, null, m -> { }));
        assertTrue(size.getMessage().startsWith(cut.toString()) && size.getMessage().contains("bytes"), size.getMessage());

        // the first tau G1 point's x replaced by the smallest x for which x^3 + b has no square root
        int n8 = curve.fp().byteLength();
        byte[] off = good.clone();
        Arrays.fill(off, 64, 64 + n8, (byte) 0);
        off[64 + n8 - 1] = (byte) noPointAt(curve);
        Path notOnCurve = dir.resolve("off-curve");
        Files.write(notOnCurve, off);
        IllegalArgumentException point = assertThrows(IllegalArgumentException.class,
                () -> ChallengeResponse.importResponse(p0, notOnCurve, out, null, m -> { }));
        assertTrue(point.getMessage().startsWith(notOnCurve + ", byte 64: not a point"), point.getMessage());
        assertTrue(Files.notExists(out), "nothing written");
    }

    private static int noPointAt(PairingCurve curve) {
        dev.proofline.algebra.field.PrimeField fp = curve.fp();
        for (int x = 0; x < 256; x++) {
            long[] v = fp.fromBigInteger(java.math.BigInteger.valueOf(x));
            long[] rhs = fp.newElement();
            fp.sqr(v, 0, rhs, 0);
            fp.mul(rhs, 0, v, 0, rhs, 0);
            fp.add(rhs, 0, curve.g1().b(), 0, rhs, 0);
            if (!fp.sqrt(rhs, 0, fp.newElement(), 0)) {
                return x;
            }
        }
        throw new AssertionError("every x below 256 has a point");
    }
}
