pragma circom 2.0.0;

// Membership in a Poseidon Merkle tree of depth D with a range check, as identity and allow-list
// circuits do: the leaf is Poseidon(secret, value), value < 2^64 is checked against a public
// threshold (LessThan(64)), the path's direction bits are checked to be bits, and the root is the
// public output. The main component is appended by bench/compare-rapidsnark.sh with D.
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/bitify.circom";

template MerkleMember(D) {
    signal input secret;
    signal input value;
    signal input threshold;
    signal input siblings[D];
    signal input directions[D];
    signal output root;

    component range = Num2Bits(64);
    range.in <== value;
    component below = LessThan(64);
    below.in[0] <== value;
    below.in[1] <== threshold;
    below.out === 1;

    component leaf = Poseidon(2);
    leaf.inputs[0] <== secret;
    leaf.inputs[1] <== value;

    component h[D];
    signal left[D];
    signal right[D];
    var node = leaf.out;
    for (var i = 0; i < D; i++) {
        directions[i] * (1 - directions[i]) === 0;
        left[i] <== node + directions[i] * (siblings[i] - node);
        right[i] <== siblings[i] - directions[i] * (siblings[i] - node);
        h[i] = Poseidon(2);
        h[i].inputs[0] <== left[i];
        h[i].inputs[1] <== right[i];
        node = h[i].out;
    }
    root <== node;
}
