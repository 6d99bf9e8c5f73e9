package dev.proofline.groth16;

import dev.proofline.algebra.Parallel;
import dev.proofline.algebra.field.PrimeField;
import dev.proofline.algebra.ntt.Ntt;
import dev.proofline.algebra.ntt.RootsOfUnity;

/**
 * h, the H MSM's scalars, on the CPU by NTTs: a, b, c taken from values on the key's domain to values
 * on the coset g H (g = snarkjs's shift, {@link RootsOfUnity#snarkjsCosetShift}), then h = a b - c
 * there. snarkjs keys hold in H the points [tau^i ... / delta] already divided by Z on the coset, so
 * no division is needed.
 */
final class Quotient {

    /** Elements per task of the pointwise loop. */
    private static final int CHUNK = 1 << 11;

    private Quotient() {
    }

    /**
     * h on the coset, canonical words, from a, b, c on the domain (Montgomery form, at least domain-size
     * vectors), which are consumed: h is computed in a's place and returned.
     */
    static long[] compute(ProvingKey key, long[] a, long[] b, long[] c) {
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        int words = fr.limbs();
        Ntt ntt = Ntt.of(fr, key.logDomainSize());
        long[] g = RootsOfUnity.snarkjsCosetShift(fr, key.logDomainSize());
        // one after the other, each on all cores; a task handed to the common pool and joined from this
        // thread would wait forever while the pool's workers are busy elsewhere (it has one on two cores)
        ntt.evaluationsOnCoset(a, g, 0);
        ntt.evaluationsOnCoset(b, g, 0);
        ntt.evaluationsOnCoset(c, g, 0);
        long[] one = new long[words];
        one[0] = 1;
        // h = a b - c
        Parallel.chunks(n, CHUNK, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                int o = i * words;
                fr.mul(a, o, b, o, a, o);
                fr.sub(a, o, c, o, a, o);
                fr.mul(a, o, one, 0, a, o); // Montgomery form -> canonical words
            }
        });
        return a;
    }
}
