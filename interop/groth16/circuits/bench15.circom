pragma circom 2.0.0;

// Small benchmark circuit: the chain of bench.circom with N = 63 (32634 constraints, domain 2^15), for
// a quick run on a key made by snarkjs itself (its 2^15 powers of tau take about half an hour).
include "circomlib/circuits/poseidon.circom";  // found through -l interop/node_modules

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

component main {public [seed]} = PoseidonChain(63);
