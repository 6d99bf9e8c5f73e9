package dev.proofline.algebra.encoding;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Points as snarkjs writes them in proof.json and verification_key.json: decimal strings of the
 * canonical coordinates, with a third, projective coordinate.
 * <ul>
 *   <li>G1: ["x", "y", "1"]; infinity ["0", "1", "0"];</li>
 *   <li>G2: [["x.c0", "x.c1"], ["y.c0", "y.c1"], ["1", "0"]]; infinity [["0", "0"], ["1", "0"], ["0", "0"]].</li>
 * </ul>
 * Source: snarkjs src/groth16_prove.js ({@code proof.pi_a = G1.toObject(G1.toAffine(proof.pi_a))}, then
 * {@code stringifyBigInts}) and src/zkey_export_verificationkey.js ({@code curve.G1.toObject(...)}).
 * ffjavascript's {@code WasmCurve.toObject} (src/wasm_curve.js) returns [x, y, one] for an affine point,
 * [zero, one, zero] for infinity, and [X, Y, Z] for a Jacobian point; its F2 {@code toObject} is [c0, c1];
 * {@code stringifyBigInts} (src/utils.js) writes each BigInt with {@code toString(10)}.
 *
 * <p>Decoding accepts what ffjavascript's {@code fromObject} accepts: two or three coordinates (a
 * missing Z means 1); Z = 0 is infinity; Z = 1 with x = y = 0 is also infinity (ffjavascript's affine
 * zero); any other Z is Jacobian, as in ffjavascript (wasmcurves' build_curve_jacobian_a0:
 * x = X / Z^2, y = Y / Z^3) and is normalised. Unlike ffjavascript, values must be decimal integers in
 * [0, p), and the point must be on the curve and (unless {@link #withoutSubgroupCheck()}) in the
 * subgroup. Instances are immutable and thread-safe.
 */
public final class SnarkjsJsonCodec {

    private final CurveGroup group;
    private final boolean checkSubgroup;

    private SnarkjsJsonCodec(CurveGroup group, boolean checkSubgroup) {
        this.group = group;
        this.checkSubgroup = checkSubgroup;
    }

    public static SnarkjsJsonCodec of(CurveGroup group) {
        return new SnarkjsJsonCodec(group, true);
    }

    /** The same codec without the subgroup check (the curve equation is still checked). */
    public SnarkjsJsonCodec withoutSubgroupCheck() {
        return new SnarkjsJsonCodec(group, false);
    }

    public CurveGroup group() {
        return group;
    }

    public boolean checksSubgroup() {
        return checkSubgroup;
    }

    // ---------------------------------------------------------------- encode

    /** ["x", "y", "1"], or ["0", "1", "0"] for infinity; affine input. */
    public List<String> encodeG1(long[] p, int pi) {
        requireDegree(1);
        if (group.curve().arithmetic().isInfinityAffine(p, pi)) {
            return List.of("0", "1", "0");
        }
        int w = group.baseField().limbs();
        return List.of(dec(p, pi), dec(p, pi + w), "1");
    }

    /** [["x.c0", "x.c1"], ["y.c0", "y.c1"], ["1", "0"]], or [["0", "0"], ["1", "0"], ["0", "0"]] for infinity. */
    public List<List<String>> encodeG2(long[] p, int pi) {
        requireDegree(2);
        if (group.curve().arithmetic().isInfinityAffine(p, pi)) {
            return List.of(List.of("0", "0"), List.of("1", "0"), List.of("0", "0"));
        }
        int w = group.baseField().limbs();
        return List.of(List.of(dec(p, pi), dec(p, pi + w)),
                List.of(dec(p, pi + 2 * w), dec(p, pi + 3 * w)),
                List.of("1", "0"));
    }

    private String dec(long[] a, int ai) {
        return group.baseField().toDecimal(a, ai);
    }

    // ---------------------------------------------------------------- decode

    /** Decodes [x, y] or [x, y, z] into a new affine point. */
    public long[] decodeG1(List<String> xyz) {
        requireDegree(1);
        Validator v = new Validator(group, checkSubgroup);
        if (xyz == null || xyz.size() < 2 || xyz.size() > 3) {
            throw v.error("expected [x, y] or [x, y, z] (decimal strings), got "
                    + (xyz == null ? "null" : xyz.size() + " elements"));
        }
        List<List<String>> coords = new ArrayList<>();
        for (String s : xyz) {
            coords.add(Collections.singletonList(s));
        }
        return decode(v, coords);
    }

    /** Decodes [[x.c0, x.c1], [y.c0, y.c1]] or with a third [z.c0, z.c1] into a new affine point. */
    public long[] decodeG2(List<List<String>> xyz) {
        requireDegree(2);
        Validator v = new Validator(group, checkSubgroup);
        if (xyz == null || xyz.size() < 2 || xyz.size() > 3) {
            throw v.error("expected [x, y] or [x, y, z] of [c0, c1] pairs, got "
                    + (xyz == null ? "null" : xyz.size() + " elements"));
        }
        for (List<String> c : xyz) {
            if (c == null || c.size() != 2) {
                throw v.error("each G2 coordinate must be a pair [c0, c1] of decimal strings");
            }
        }
        return decode(v, xyz);
    }

    private long[] decode(Validator v, List<List<String>> coords) {
        int d = group.degree();
        int w = group.baseField().limbs();
        int cw = d * w;
        long[] jac = new long[3 * cw];
        String[] names = {"x", "y", "z"};
        for (int c = 0; c < 3; c++) {
            if (c == 2 && coords.size() == 2) {
                v.f.setOne(jac, 2 * cw);
                break;
            }
            for (int i = 0; i < d; i++) {
                String name = d == 1 ? names[c] : names[c] + ".c" + i;
                parse(v, coords.get(c).get(i), name, jac, c * cw + i * w);
            }
        }
        long[] r = new long[2 * cw];
        boolean zeroXY = v.f.isZero(jac, 0) && v.f.isZero(jac, cw);
        if (v.f.isZero(jac, 2 * cw)) {
            return r;                                          // Z = 0: infinity
        }
        if (v.f.isOne(jac, 2 * cw)) {
            System.arraycopy(jac, 0, r, 0, 2 * cw);            // affine; (0, 0) is infinity
            v.requireValid(r, 0);
            return r;
        }
        if (zeroXY) {
            throw new PointEncodingException(group.displayName() + " point is not on the curve");
        }
        v.pa.toAffine(jac, 0, r, 0);                           // Jacobian: (X / Z^2, Y / Z^3)
        v.requireValid(r, 0);
        return r;
    }

    private void parse(Validator v, String s, String name, long[] r, int ri) {
        if (s == null || s.isEmpty() || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw v.error("coordinate " + name + " is not a decimal number: " + (s == null ? "null" : "\"" + s + "\""));
        }
        BigInteger x = new BigInteger(s);
        if (x.compareTo(group.baseField().modulus()) >= 0) {
            throw v.error("coordinate " + name + " is not below the field modulus");
        }
        group.baseField().fromBigInteger(x, r, ri);
    }

    private void requireDegree(int d) {
        if (group.degree() != d) {
            throw new IllegalStateException(group.displayName() + " points are " + group.label()
                    + ": use the " + group.label() + " methods");
        }
    }
}
