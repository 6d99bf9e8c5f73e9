package dev.proofline.r1cs.wasm;

/**
 * A witness could not be computed from the given input: the input does not fit the circuit (an
 * unknown signal, a wrong number of values, a value that is not an integer, inputs left unset), or
 * the circuit rejected it (a failed assertion or constraint, reported by circom's runtime with the
 * template and line). The message names the signal where there is one.
 */
public class WitnessException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Reason {
        /** The input JSON is not a JSON object of signals. */
        MALFORMED_INPUT,
        /** The input names a signal that is not an input of the circuit. */
        UNKNOWN_SIGNAL,
        /** An array signal was given more or fewer values than it has. */
        WRONG_COUNT,
        /** A value is not an integer (a fraction, a non-numeric string, null, ...). */
        BAD_VALUE,
        /** Some inputs were not given ("Not all inputs have been set"). */
        MISSING_INPUTS,
        /** circom's runtime stopped the computation (an assertion or constraint failed, ...). */
        CIRCUIT_ERROR
    }

    private final Reason reason;
    private final String signal;
    private final int circomCode;

    WitnessException(Reason reason, String signal, String message) {
        this(reason, signal, 0, message);
    }

    WitnessException(Reason reason, String signal, int circomCode, String message) {
        super(message);
        this.reason = reason;
        this.signal = signal;
        this.circomCode = circomCode;
    }

    public Reason reason() {
        return reason;
    }

    /** The input signal concerned (as written in the input, qualified: "a", "p.x", "q[1].y"), or null. */
    public String signal() {
        return signal;
    }

    /**
     * For {@link Reason#CIRCUIT_ERROR}: the code circom's runtime passed to its exception handler
     * (1 signal not found, 2 too many signals set, 3 signal already set, 4 assert failed, 5 not enough
     * memory, 6 input signal array access exceeds the size, 7 out of bounds array access); else 0.
     */
    public int circomCode() {
        return circomCode;
    }

    /** A signal name as messages show it: at most 80 characters (a JSON key may have thousands). */
    static String shown(String signal) {
        return signal == null || signal.length() <= 80 ? signal : signal.substring(0, 77) + "...";
    }
}
