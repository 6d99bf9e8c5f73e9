pragma circom 2.0.0;

// A chain of N Poseidon(2) hashes (the circuit of interop/groth16/circuits/bench.circom): dense, its
// witness random-looking field elements. 518 N - 1 constraints at circom's default -O1.
// The main component is appended by bench/compare-rapidsnark.sh with N.
include "circomlib/circuits/poseidon.circom";

template PoseidonChain(N) {
    signal input seed;
    signal input key;
    signal output out;

    component h[N];
    for (var i = 0; i < N; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? seed : h[i - 1].out;
        h[i].inputs[1] <== key + i;
    }
    out <== h[N - 1].out;
}
