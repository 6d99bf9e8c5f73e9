package dev.proofline.groth16;

import dev.proofline.algebra.field.PrimeField;
import dev.proofline.r1cs.Witness;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * a, b, c completed after the circuit's own {@code rows} constraints, which the PCE or the enforce path
 * computed (Montgomery form, one element per constraint): the rows snarkjs's setup adds follow them,
 * one for the constant w_0 and one for each public signal, with w_i in A and nothing in B, so a holds
 * w_i there and b, c zero; the rest of the domain is zeroed. The key's coefficients are not read.
 */
final class PublicRows {

    private PublicRows() {
    }

    /** Throws unless {@code rows} constraints and the public rows fit the key's domain. */
    static void check(ProvingKey key, int rows) {
        int nPublic = key.publicCount();
        if (rows < 0 || (long) rows + nPublic + 1 > key.domainSize()) {
            throw new IllegalArgumentException(rows + " constraints and " + (nPublic + 1)
                    + " public rows do not fit the key's domain of " + key.domainSize());
        }
    }

    /** Completes heap vectors of at least the domain's size. */
    static void append(ProvingKey key, Witness witness, long[] a, long[] b, long[] c, int rows) {
        PrimeField fr = key.curve().fr();
        int n = key.domainSize();
        int nPublic = key.publicCount();
        long[] w = witness.words();
        for (long[] v : new long[][] {a, b, c}) {
            Arrays.fill(v, rows * 4, n * 4, 0L);
        }
        for (int s = 0; s <= nPublic; s++) {
            fr.toMontgomery(w, s * 4, a, (rows + s) * 4);
        }
    }

    /** Completes native vectors of at least the domain's size. */
    static void append(ProvingKey key, Witness witness, MemorySegment a, MemorySegment b, MemorySegment c,
            int rows) {
        PrimeField fr = key.curve().fr();
        int nPublic = key.publicCount();
        long end = Prover.NativeWorkspace.vectorBytes(key);
        for (MemorySegment v : new MemorySegment[] {a, b, c}) {
            v.asSlice(rows * 32L, end - rows * 32L).fill((byte) 0);
        }
        long[] w = witness.words();
        long[] t = new long[4];
        for (int s = 0; s <= nPublic; s++) {
            fr.toMontgomery(w, s * 4, t, 0);
            MemorySegment.copy(t, 0, a, ValueLayout.JAVA_LONG, (rows + s) * 32L, 4);
        }
    }
}
