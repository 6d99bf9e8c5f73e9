pragma circom 2.0.0;

// Witness-time checks for the error tests: an assert on an input, a constraint on the output, and a
// log line. x != 0 and x * y == 12, else the witness generator stops.
template Checks() {
    signal input x;
    signal input y;
    signal output out;

    log("x is", x, "and y is", y);
    assert(x != 0);
    out <== x * y;
    out === 12;
}

component main = Checks();
