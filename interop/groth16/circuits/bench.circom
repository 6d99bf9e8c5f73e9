pragma circom 2.0.0;

// Benchmark circuit: a chain of N Poseidon(2) hashes. Public input: seed. Private input: key.
// Output: the last hash. With N = 253 it has 131053 constraints (per hash 243 non-linear +
// 275 linear at circom's default -O1), so the Groth16 domain is exactly 2^17.
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

component main {public [seed]} = PoseidonChain(253);
