pragma circom 2.0.0;

// A few chained products and sums. Public inputs: a, b. Private inputs: x, y, z.
// Outputs: prod, mix.
template Multiplier() {
    signal input a;
    signal input b;
    signal input x;
    signal input y;
    signal input z;
    signal output prod;
    signal output mix;

    signal t[8];
    t[0] <== a * x;
    t[1] <== t[0] * y;
    t[2] <== (t[1] + b) * z;
    t[3] <== t[2] * t[2];
    t[4] <== (t[3] + x + 7) * (y + a);
    t[5] <== t[4] * b;
    t[6] <== (t[5] - z) * (t[0] + 1);
    t[7] <== t[6] * t[1];
    prod <== t[7] * x;
    mix <== (t[3] + t[5]) * (a + b + 3);
}

component main {public [a, b]} = Multiplier();
