package dev.proofline.r1cs.cs;

/**
 * A variable of a constraint system: a public input or a private (auxiliary) variable, numbered in
 * allocation order within its kind. Input 0 is the constant 1 ({@link ConstraintSystem#one()}).
 * In the final assignment the inputs come first, then the auxiliary variables (circom's wire order:
 * 1, the public signals, the private ones).
 */
public record Variable(int index, boolean input) {

    /** The variable as one int: inputs non-negative, auxiliary variables negative (-1 - index). */
    public int encoded() {
        return input ? index : -1 - index;
    }

    public static Variable decode(int code) {
        return code >= 0 ? new Variable(code, true) : new Variable(-1 - code, false);
    }

    /** Column in the final assignment, given the number of inputs (the constant included). */
    public static int column(int code, int inputs) {
        return code >= 0 ? code : inputs + (-1 - code);
    }
}
