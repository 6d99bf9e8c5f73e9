pragma circom 2.0.0;

// No public inputs (main has no public list); one output.
template NoPublic() {
    signal input x;
    signal input y;
    signal output out;

    signal t;
    t <== x * y;
    out <== t * x + y;
}

component main = NoPublic();
