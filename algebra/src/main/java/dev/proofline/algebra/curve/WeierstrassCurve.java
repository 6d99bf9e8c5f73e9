package dev.proofline.algebra.curve;

import dev.proofline.algebra.field.Field;
import dev.proofline.algebra.field.PrimeField;
import java.math.BigInteger;

/**
 * A group of points of a short Weierstrass curve y^2 = x^3 + b (a = 0) over a field F, restricted to
 * the prime-order subgroup of order r that the scalars act on.
 *
 * <p>Layouts, in a {@code long[]} at an offset, w = {@code field.width()}:
 * <ul>
 *   <li>affine: x, y (2w longs); the point at infinity is (0, 0), which is never on a curve with
 *       b != 0 (this is also the snarkjs key layout's convention);</li>
 *   <li>Jacobian: X, Y, Z (3w longs) standing for (X/Z^2, Y/Z^3); infinity has Z = 0.</li>
 * </ul>
 * Arithmetic lives in {@link PointArithmetic}, one per thread.
 */
public final class WeierstrassCurve {

    private final String name;
    private final Field field;
    private final long[] b;
    private final long[] generator;
    private final PrimeField scalarField;
    private final BigInteger cofactor;

    /** A curve with generator (gx, gy), each coordinate one element of {@code field}. */
    public WeierstrassCurve(String name, Field field, long[] b, long[] gx, long[] gy, PrimeField scalarField,
            BigInteger cofactor) {
        this.name = name;
        this.field = field;
        this.b = b.clone();
        int w = field.width();
        this.generator = new long[2 * w];
        field.copy(gx, 0, generator, 0);
        field.copy(gy, 0, generator, w);
        this.scalarField = scalarField;
        this.cofactor = cofactor;
    }

    public String name() {
        return name;
    }

    /** The coordinate field (Fp for G1, Fp2 for G2). Shared: use {@code field().forThread()} for work. */
    public Field field() {
        return field;
    }

    /** The scalar field Fr; r is the order of the group. */
    public PrimeField scalarField() {
        return scalarField;
    }

    public BigInteger order() {
        return scalarField.modulus();
    }

    /** #E(F) / r. */
    public BigInteger cofactor() {
        return cofactor;
    }

    /** Curve coefficient b, Montgomery form (a copy). */
    public long[] b() {
        return b.clone();
    }

    /** The standard generator, affine (a copy). */
    public long[] generator() {
        return generator.clone();
    }

    /** Longs per coordinate. */
    public int coordinateWidth() {
        return field.width();
    }

    public int affineWidth() {
        return 2 * field.width();
    }

    public int jacobianWidth() {
        return 3 * field.width();
    }

    /** A new arithmetic context for the calling thread. */
    public PointArithmetic arithmetic() {
        return new PointArithmetic(this);
    }

    @Override
    public String toString() {
        return name;
    }
}
