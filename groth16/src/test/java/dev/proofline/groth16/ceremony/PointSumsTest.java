package dev.proofline.groth16.ceremony;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.algebra.PairingCurve;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@link PointSums#evaluate} tells its progress as it goes, every term once, not only at its end. */
class PointSumsTest {

    @Test
    void evaluateReportsEveryTermOnceInSeveralParts() {
        PairingCurve curve = PairingCurve.BN254;
        int outputs = 41;
        int termsEach = 250;        // summed term by term
        int lastTerms = 300;        // the last output: by an MSM
        PointSums sums = new PointSums(outputs);
        for (int j = 0; j < outputs; j++) {
            for (int t = 0; t < (j == outputs - 1 ? lastTerms : termsEach); t++) {
                sums.count(j);
            }
        }
        sums.seal();
        long[] scalar = new long[4];
        for (int j = 0; j < outputs; j++) {
            for (int t = 0; t < (j == outputs - 1 ? lastTerms : termsEach); t++) {
                scalar[0] = 1 + t % 5;
                sums.add(j, 0, t % 8, scalar, 0);
            }
        }
        long[] g = curve.g1().generator();
        long[][] bases = {new long[8 * g.length]};
        for (int i = 0; i < 8; i++) {
            System.arraycopy(g, 0, bases[0], i * g.length, g.length);
        }
        List<Long> reports = new CopyOnWriteArrayList<>();
        long[] out = sums.evaluate(curve, false, bases, curve.fr().modulus(),
                reports::add);

        long total = (long) (outputs - 1) * termsEach + lastTerms;
        assertEquals(total, reports.stream().mapToLong(Long::longValue).sum(), reports::toString);
        assertTrue(reports.size() >= 3, "reported in parts: " + reports);
        assertTrue(reports.stream().allMatch(r -> r >= 0), reports::toString);
        int aw = g.length;
        for (int j = 1; j < outputs - 1; j++) {
            assertArrayEquals(Arrays.copyOfRange(out, 0, aw), Arrays.copyOfRange(out, j * aw, (j + 1) * aw),
                    "outputs of the same terms are the same point");
        }
    }
}
