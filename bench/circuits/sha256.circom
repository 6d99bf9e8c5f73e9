pragma circom 2.0.0;

// SHA-256 of BYTES bytes (circomlib's Sha256 on their bits, most significant bit of each byte
// first), the digest out as two 128-bit public outputs. Bit-heavy: almost every signal is 0 or 1.
// The main component is appended by bench/compare-rapidsnark.sh with the byte count.
include "circomlib/circuits/sha256/sha256.circom";
include "circomlib/circuits/bitify.circom";

template Sha256Bytes(BYTES) {
    signal input in[BYTES];
    signal output hi;
    signal output lo;

    component bytes[BYTES];
    component sha = Sha256(8 * BYTES);
    for (var i = 0; i < BYTES; i++) {
        bytes[i] = Num2Bits(8);
        bytes[i].in <== in[i];
        for (var j = 0; j < 8; j++) {
            sha.in[8 * i + j] <== bytes[i].out[7 - j];
        }
    }
    component h = Bits2Num(128);
    component l = Bits2Num(128);
    for (var j = 0; j < 128; j++) {
        h.in[j] <== sha.out[127 - j];
        l.in[j] <== sha.out[255 - j];
    }
    hi <== h.out;
    lo <== l.out;
}
