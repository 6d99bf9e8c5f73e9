package dev.proofline.groth16;

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

    private Quotient() {
    }

    /**
     * h on the coset, canonical words, from a, b, c on the domain (Montgomery form, at least domain-size
     * vectors), which are consumed: h is computed in a's place and returned.
     */
    static long[] compute(ProvingKey key, long[] a, long[] b, long[] c) {
        // one after the other, each on all cores; a task handed to the common pool and joined from this
        // thread would wait forever while the pool's workers are busy elsewhere (it has one on two cores)
        for (Runnable step : steps(key, a, b, c)) {
            step.run();
        }
        return a;
    }

    /**
     * The steps of {@link #compute} on one domain, in place: first the transforms of a, b and c from the
     * domain to the coset, one step each and independent of one another, then (the last step, after all
     * three) h = a b - c out of Montgomery form in a's place. Each runs its parallel loops on the common
     * pool, with whichever of its workers are free.
     */
    static Runnable[] steps(ProvingKey key, long[] a, long[] b, long[] c) {
        PrimeField fr = key.curve().fr();
        Ntt ntt = Ntt.of(fr, key.logDomainSize());
        long[] g = RootsOfUnity.snarkjsCosetShift(fr, key.logDomainSize());
        return new Runnable[] {() -> ntt.evaluationsOnCoset(a, g, 0), () -> ntt.evaluationsOnCoset(b, g, 0),
            () -> ntt.evaluationsOnCoset(c, g, 0), () -> ntt.mulSubToCanonical(a, b, c)};
    }
}
