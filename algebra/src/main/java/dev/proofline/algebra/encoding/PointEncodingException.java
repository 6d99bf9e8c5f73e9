package dev.proofline.algebra.encoding;

/**
 * A byte or text encoding of a curve point was rejected: wrong length, bad flags, a coordinate not
 * below the field modulus, a point not on the curve or not in the prime-order subgroup. The message
 * names the group and the problem.
 */
public class PointEncodingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public PointEncodingException(String message) {
        super(message);
    }

    public PointEncodingException(String message, Throwable cause) {
        super(message, cause);
    }
}
