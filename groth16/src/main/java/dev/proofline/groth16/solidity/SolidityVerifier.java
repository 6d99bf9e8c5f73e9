package dev.proofline.groth16.solidity;

import dev.proofline.algebra.PairingCurve;
import dev.proofline.algebra.encoding.SnarkjsJsonCodec;
import dev.proofline.groth16.VerificationKey;
import java.util.List;

/**
 * A Solidity contract that verifies the Groth16 proofs of one circuit on Ethereum, with the shape of the
 * one snarkjs writes ({@code contract Groth16Verifier}, {@code verifyProof(uint[2] _pA, uint[2][2] _pB,
 * uint[2] _pC, uint[n] _pubSignals) public view returns (bool)}), so that what calls the one calls the
 * other, with the arguments {@link SolidityCalldata} prints. The key is written into the contract as
 * constants; the check uses Ethereum's BN254 precompiles (EIP-196: 0x06 addition, 0x07 scalar
 * multiplication; EIP-197: 0x08 pairing check), so only BN254 keys have one here.
 *
 * <p>The contract checks e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta), with L = IC_0 + sum s_i IC_i,
 * as the single product e(-A, B) e(alpha, beta) e(L, gamma) e(C, delta) = 1 that the pairing
 * precompile tests. It answers false, never reverts, for a proof that fails: a signal or coordinate out
 * of its field (either would otherwise be reduced, and a proof accepted for a value it was not made
 * for), a point the precompiles refuse, or a pairing product other than 1.
 */
public final class SolidityVerifier {

    private SolidityVerifier() {
    }

    /**
     * The contract's source for {@code vk}.
     *
     * @throws IllegalArgumentException for a key that is not on BN254
     */
    public static String source(VerificationKey vk) {
        if (vk.curve() != PairingCurve.BN254) {
            throw new IllegalArgumentException("a Solidity verifier is made for BN254 (bn128) keys only, this key is"
                    + " on " + vk.curve().snarkjsName() + ": the verifier calls Ethereum's BN254 precompiles"
                    + " (EIP-196, EIP-197), and no verifier on BLS12-381's (EIP-2537) is generated");
        }
        SnarkjsJsonCodec g1 = SnarkjsJsonCodec.of(vk.curve().g1Group());
        SnarkjsJsonCodec g2 = SnarkjsJsonCodec.of(vk.curve().g2Group());
        int n = vk.publicCount();
        StringBuilder key = new StringBuilder();
        g1Constants(key, "ALPHA", g1.encodeG1(vk.alpha1(), 0));
        g2Constants(key, "BETA", g2.encodeG2(vk.beta2(), 0));
        g2Constants(key, "GAMMA", g2.encodeG2(vk.gamma2(), 0));
        g2Constants(key, "DELTA", g2.encodeG2(vk.delta2(), 0));
        int width = vk.curve().g1().affineWidth();
        for (int i = 0; i <= n; i++) {
            g1Constants(key, "IC" + i, g1.encodeG1(vk.ic(), i * width));
        }
        StringBuilder signalChecks = new StringBuilder();
        StringBuilder sum = new StringBuilder();
        for (int i = 0; i < n; i++) {
            signalChecks.append("        if (_pubSignals[").append(i).append("] >= R) {\n")
                    .append("            return false;\n")
                    .append("        }\n");
            sum.append("        if (!addMultiple(l, IC").append(i + 1).append("_X, IC").append(i + 1)
                    .append("_Y, _pubSignals[").append(i).append("])) {\n")
                    .append("            return false;\n")
                    .append("        }\n");
        }
        // Solidity has no arrays of length 0: a circuit without public signals takes three arguments
        String signalsParameter = n == 0 ? "" : ",\n        uint[" + n + "] calldata _pubSignals";
        return TEMPLATE.replace("@PUBLIC@", Integer.toString(n))
                .replace("@Q@", vk.curve().fp().modulus().toString())
                .replace("@R@", vk.curve().fr().modulus().toString())
                .replace("@KEY@", key.toString().stripTrailing())
                .replace("@SIGNALS_PARAMETER@", signalsParameter)
                .replace("@SIGNAL_CHECKS@", signalChecks.toString())
                .replace("@SUM@", sum.toString());
    }

    private static void g1Constants(StringBuilder out, String name, List<String> p) {
        constant(out, name + "_X", p.get(0));
        constant(out, name + "_Y", p.get(1));
    }

    /** A G2 point's four coordinates, imaginary part first as the pairing precompile reads them. */
    private static void g2Constants(StringBuilder out, String name, List<List<String>> p) {
        constant(out, name + "_X_IM", p.get(0).get(1));
        constant(out, name + "_X_RE", p.get(0).get(0));
        constant(out, name + "_Y_IM", p.get(1).get(1));
        constant(out, name + "_Y_RE", p.get(1).get(0));
    }

    private static void constant(StringBuilder out, String name, String decimal) {
        out.append("    uint256 constant ").append(name).append(" = ").append(decimal).append(";\n");
    }

    private static final String TEMPLATE = """
            // SPDX-License-Identifier: Apache-2.0
            // Made by `proofline zkey export solidityverifier` from a Groth16 key on BN254.
            pragma solidity >=0.7.0 <0.9.0;

            /// @title Groth16 verifier of one circuit (@PUBLIC@ public signals)
            /// @notice verifyProof(A, B, C, signals) is true when e(A, B) = e(alpha, beta) e(L, gamma) e(C, delta),
            /// L = IC0 + signals[0] IC1 + ... + signals[n-1] ICn, for the key written below. Its arguments are
            /// what `proofline zkey export soliditycalldata public.json proof.json` prints. A G2 point is given
            /// as [[x.im, x.re], [y.im, y.re]], the order of Ethereum's pairing precompile.
            contract Groth16Verifier {
                /// BN254's base field modulus: every coordinate is below it
                uint256 constant Q = @Q@;
                /// BN254's scalar field modulus: every public signal is below it
                uint256 constant R = @R@;

            @KEY@

                function verifyProof(
                    uint[2] calldata _pA,
                    uint[2][2] calldata _pB,
                    uint[2] calldata _pC@SIGNALS_PARAMETER@
                ) public view returns (bool) {
                    // Out-of-field values are refused rather than reduced: the precompiles would read a
                    // signal s + R as s, and this contract negates A's y itself.
                    if (_pA[0] >= Q || _pA[1] >= Q || _pC[0] >= Q || _pC[1] >= Q) {
                        return false;
                    }
                    if (_pB[0][0] >= Q || _pB[0][1] >= Q || _pB[1][0] >= Q || _pB[1][1] >= Q) {
                        return false;
                    }
            @SIGNAL_CHECKS@
                    // L = IC0 + sum of signals[i] IC(i+1)
                    uint256[2] memory l;
                    l[0] = IC0_X;
                    l[1] = IC0_Y;
            @SUM@
                    // e(-A, B) e(alpha, beta) e(L, gamma) e(C, delta) = 1, four pairs of (G1, G2)
                    uint256[24] memory pairs;
                    pairs[0] = _pA[0];
                    pairs[1] = _pA[1] == 0 ? 0 : Q - _pA[1];
                    pairs[2] = _pB[0][0];
                    pairs[3] = _pB[0][1];
                    pairs[4] = _pB[1][0];
                    pairs[5] = _pB[1][1];
                    pairs[6] = ALPHA_X;
                    pairs[7] = ALPHA_Y;
                    pairs[8] = BETA_X_IM;
                    pairs[9] = BETA_X_RE;
                    pairs[10] = BETA_Y_IM;
                    pairs[11] = BETA_Y_RE;
                    pairs[12] = l[0];
                    pairs[13] = l[1];
                    pairs[14] = GAMMA_X_IM;
                    pairs[15] = GAMMA_X_RE;
                    pairs[16] = GAMMA_Y_IM;
                    pairs[17] = GAMMA_Y_RE;
                    pairs[18] = _pC[0];
                    pairs[19] = _pC[1];
                    pairs[20] = DELTA_X_IM;
                    pairs[21] = DELTA_X_RE;
                    pairs[22] = DELTA_Y_IM;
                    pairs[23] = DELTA_Y_RE;
                    uint256[1] memory product;
                    bool called;
                    assembly {
                        called := staticcall(gas(), 0x08, pairs, 768, product, 32)
                    }
                    return called && product[0] == 1;
                }

                /// l := l + s (x, y), by the scalar multiplication (0x07) and addition (0x06) precompiles;
                /// false when either refuses its input.
                function addMultiple(uint256[2] memory l, uint256 x, uint256 y, uint256 s) private view returns (bool) {
                    uint256[3] memory scaled;
                    scaled[0] = x;
                    scaled[1] = y;
                    scaled[2] = s;
                    uint256[4] memory sum;
                    bool called;
                    assembly {
                        called := staticcall(gas(), 0x07, scaled, 96, sum, 64)
                    }
                    if (!called) {
                        return false;
                    }
                    sum[2] = l[0];
                    sum[3] = l[1];
                    assembly {
                        called := staticcall(gas(), 0x06, sum, 128, l, 64)
                    }
                    return called;
                }
            }
            """;
}
