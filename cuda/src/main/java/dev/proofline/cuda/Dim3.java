package dev.proofline.cuda;

/** A grid or block shape; every extent at least 1. */
public record Dim3(int x, int y, int z) {

    public Dim3 {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException("dimensions " + x + "x" + y + "x" + z);
        }
    }

    /** A one-dimensional shape. */
    public static Dim3 of(int x) {
        return new Dim3(x, 1, 1);
    }

    @Override
    public String toString() {
        return x + "x" + y + "x" + z;
    }
}
