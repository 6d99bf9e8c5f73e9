pragma circom 2.0.0;

// An input the circuit rejects while its witness is computed, though every signal is named and sized
// right: x must not be 0 (an assert), and x * y must be 12. Public input: x.
template Checks() {
    signal input x;
    signal input y;
    signal output out;

    assert(x != 0);
    out <== x * y;
    out === 12;
}

component main {public [x]} = Checks();
