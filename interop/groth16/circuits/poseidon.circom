pragma circom 2.0.0;

// circomlib's Poseidon over private inputs. Public input: nonce. Private inputs: secret[2].
// Outputs: digest = Poseidon(secret[0], secret[1]), commitment = Poseidon(digest + nonce),
// square = nonce^2. 934 constraints (460 non-linear, 474 linear), so the domain is 2^10.
include "circomlib/circuits/poseidon.circom";  // found through -l interop/node_modules

template PoseidonCommit() {
    signal input nonce;
    signal input secret[2];
    signal output digest;
    signal output commitment;
    signal output square;

    component h1 = Poseidon(2);
    h1.inputs[0] <== secret[0];
    h1.inputs[1] <== secret[1];
    digest <== h1.out;

    component h2 = Poseidon(1);
    h2.inputs[0] <== digest + nonce;
    commitment <== h2.out;

    square <== nonce * nonce;
}

component main {public [nonce]} = PoseidonCommit();
