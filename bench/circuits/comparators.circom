pragma circom 2.0.0;

// N comparisons of 252-bit numbers (circomlib's LessThan: a 253-bit decomposition each), the count of
// a[i] < b[i] the public output: range checks and comparators, almost every signal a bit.
// The main component is appended by bench/compare-rapidsnark.sh with N.
include "circomlib/circuits/comparators.circom";

template Comparisons(N) {
    signal input a[N];
    signal input b[N];
    signal output count;

    component lt[N];
    var sum = 0;
    for (var i = 0; i < N; i++) {
        lt[i] = LessThan(252);
        lt[i].in[0] <== a[i];
        lt[i].in[1] <== b[i];
        sum += lt[i].out;
    }
    count <== sum;
}
