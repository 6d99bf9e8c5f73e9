#!/usr/bin/env node
// Reference vectors computed with ffjavascript (the arithmetic library behind snarkjs).
//
// Usage: node interop/ffjs/vectors.cjs <bn128|bls12381> <kind> <seed> [n]
//   kind: constants | g1mul | g2mul | msm-g1 | msm-g2 | ntt | pairing
//   n:    number of cases / points (g1mul, g2mul, msm-*), log2 size (ntt)
//
// Prints exactly one JSON object on stdout. All numbers are canonical decimal strings
// (never Montgomery form). G1 affine = {"x","y"}; G2 affine = {"x":[c0,c1],"y":[c0,c1]}
// (Fp2 element = c0 + c1*u); point at infinity = null. Fp12 = flat array of 12 strings
// in ffjavascript's tower order (see interop/README.md).
//
// Deterministic: every random value comes from SHA-256(seed || ":" || counter), two blocks
// (512 bits) reduced mod r, so the bias is negligible.
"use strict";

const crypto = require("node:crypto");
const { buildBn128, buildBls12381 } = require("ffjavascript");

const USAGE = "usage: node vectors.cjs <bn128|bls12381> <constants|g1mul|g2mul|msm-g1|msm-g2|ntt|pairing> <seed> [n]";

class Prng {
    constructor(seed) { this.seed = String(seed); this.counter = 0; }
    block() {
        const h = crypto.createHash("sha256");
        h.update(this.seed + ":" + (this.counter++));
        return h.digest("hex");
    }
    // uniform-ish integer in [0, m)
    below(m) {
        const v = BigInt("0x" + this.block() + this.block());
        return v % m;
    }
}

function fail(msg) {
    process.stderr.write(msg + "\n");
    process.exitCode = 1;
}

async function buildCurve(name) {
    if (name === "bn128") return buildBn128(true);
    if (name === "bls12381") return buildBls12381(true);
    throw new Error("unknown curve: " + name + "\n" + USAGE);
}

function main(curve, kind, seed, nArg) {
    const rng = new Prng(seed);
    const Fr = curve.Fr;
    const r = Fr.p;
    const dec = (x) => x.toString(10);
    const frStr = (m) => dec(Fr.toObject(m));      // Montgomery buffer -> decimal
    const fpStr = (F, m) => dec(F.toObject(m));

    function pointObj(G, P) {
        if (G.isZero(P)) return null;
        const A = G.toAffine(P);
        const F = G.F;
        const x = A.slice(0, F.n8), y = A.slice(F.n8, 2 * F.n8);
        if (G === curve.G1) return { x: dec(F.toObject(x)), y: dec(F.toObject(y)) };
        const ox = F.toObject(x), oy = F.toObject(y);
        return { x: ox.map(dec), y: oy.map(dec) };
    }

    const flat = (o) => (Array.isArray(o) ? o.flatMap(flat) : [dec(o)]);

    // scalar multiplication with a BigInt scalar (Scalar.toLEBuff(0n) is handled explicitly)
    function mul(G, P, k) {
        if (k === 0n) return G.zero;
        return G.timesScalar(P, k);
    }

    switch (kind) {
    case "constants": {
        const w = Fr.w.map(frStr);
        return {
            curve: curve.name,
            p: dec(curve.q),
            r: dec(curve.r),
            g1: pointObj(curve.G1, curve.G1.g),
            g2: pointObj(curve.G2, curve.G2.g),
            fr_two_adicity: Fr.s,
            fr_root_of_unity: w[Fr.s],            // Fr.w[s], order exactly 2^s
            fr_w: w,                              // Fr.w[k] has order 2^k, Fr.w[k] = Fr.w[k+1]^2
            fr_nqr: frStr(Fr.nqr),                // smallest quadratic non-residue >= 2
            fr_shift: frStr(Fr.shift),            // nqr^2, used by fft of size 2^(s+1) and by groth16 when power == s
            fr_shift_inv: frStr(Fr.shiftInv),
            fp_nqr: fpStr(curve.F1, curve.F1.nqr),
        };
    }
    case "g1mul":
    case "g2mul": {
        const G = kind === "g1mul" ? curve.G1 : curve.G2;
        const n = nArg === undefined ? 8 : nArg;
        const ks = [0n, 1n, r - 1n, 2n];
        while (ks.length < n) ks.push(rng.below(r));
        ks.length = Math.max(n, 0);
        const cases = ks.map((k) => ({ k: dec(k), point: pointObj(G, mul(G, G.g, k)) }));
        const t = rng.below(r);
        const P = mul(G, G.g, t);
        const pks = [0n, 1n, r - 1n, rng.below(r), rng.below(r)];
        const baseCases = pks.map((k) => ({ k: dec(k), point: pointObj(G, mul(G, P, k)) }));
        // consistency: k*(t*G) == (k*t mod r)*G
        for (const c of baseCases) {
            const k = BigInt(c.k);
            const direct = mul(G, G.g, (k * t) % r);
            if (!G.eq(G.toJacobian(mul(G, P, k)), G.toJacobian(direct))) {
                fail("k*P != (k*t)*G for k=" + c.k);
            }
        }
        return { curve: curve.name, kind, generator: pointObj(G, G.g), cases,
            base: { t: dec(t), P: pointObj(G, P), cases: baseCases } };
    }
    case "msm-g1":
    case "msm-g2": {
        const G = kind === "msm-g1" ? curve.G1 : curve.G2;
        const n = nArg === undefined ? 40 : nArg;
        const sG = G.F.n8 * 2;
        // points (Jacobian buffers) and BigInt scalars
        const pts = [];
        const scs = [];
        for (let i = 0; i < n; i++) {
            let P;
            if (i === 1) P = G.zero;                     // point at infinity
            else if (i === 3 && pts.length > 2) P = pts[2];   // duplicated point
            else if (i === 5 && pts.length > 4) P = pts[4];   // duplicated point (same scalar below)
            else if (i === 6) P = G.g;                   // generator itself
            else P = mul(G, G.g, rng.below(r));
            pts.push(G.toAffine(P));
        }
        for (let i = 0; i < n; i++) {
            let k;
            if (i === 0) k = 0n;
            else if (i === 2) k = 1n;
            else if (i === 4) k = r - 1n;
            else if (i === 5) k = r - 1n;                // P4*(r-1) + P4*(r-1)
            else k = rng.below(r);
            scs.push(k);
        }
        const buffBases = new Uint8Array(n * sG);
        const buffScalars = new Uint8Array(n * Fr.n8);
        for (let i = 0; i < n; i++) {
            G.toRprLEM(buffBases, i * sG, pts[i]);
            Fr.toRprLE(buffScalars, i * Fr.n8, Fr.e(scs[i]));
        }
        return G.multiExpAffine(buffBases, buffScalars).then((res) => {
            let naive = G.zero;
            for (let i = 0; i < n; i++) naive = G.add(naive, mul(G, pts[i], scs[i]));
            if (!G.eq(res, naive)) fail("multiExpAffine disagrees with naive sum of timesScalar");
            return {
                curve: curve.name, kind,
                points: pts.map((P) => pointObj(G, P)),
                scalars: scs.map(dec),
                result: pointObj(G, res),
            };
        });
    }
    case "ntt": {
        const k = nArg === undefined ? 4 : nArg;
        if (k < 0 || k > Fr.s) throw new Error("ntt log size must be in [0, " + Fr.s + "]");
        const n = 1 << k;
        const vals = [];
        for (let i = 0; i < n; i++) vals.push(rng.below(r));
        const buff = new Uint8Array(n * Fr.n8);
        for (let i = 0; i < n; i++) buff.set(Fr.e(vals[i]), i * Fr.n8);   // Montgomery LE
        return Promise.all([Fr.fft(buff), Fr.ifft(buff)]).then(([bf, bi]) => {
            const get = (b, i) => b.slice(i * Fr.n8, (i + 1) * Fr.n8);
            // Cross-checks against the documented convention:
            //   fft[i]  = sum_j a_j * w^(i*j)               (w = Fr.w[k], natural order)
            //   ifft[i] = n^-1 * sum_j a_j * w^(-i*j)
            const w = Fr.w[k], wInv = Fr.inv(Fr.w[k]), nInv = Fr.inv(Fr.e(n));
            const idx = n <= 64 ? [...Array(n).keys()] : [0, 1, 2, 3, n >> 1, n - 2, n - 1, 5 % n];
            for (const i of idx) {
                let s = Fr.zero, t = Fr.zero;
                const wi = Fr.exp(w, i), wii = Fr.exp(wInv, i);
                let pw = Fr.one, pwi = Fr.one;
                for (let j = 0; j < n; j++) {
                    const a = get(buff, j);
                    s = Fr.add(s, Fr.mul(a, pw));
                    t = Fr.add(t, Fr.mul(a, pwi));
                    pw = Fr.mul(pw, wi); pwi = Fr.mul(pwi, wii);
                }
                if (!Fr.eq(s, get(bf, i))) fail("fft mismatch at index " + i);
                if (!Fr.eq(Fr.mul(t, nInv), get(bi, i))) fail("ifft mismatch at index " + i);
            }
            const arr = (b) => { const o = []; for (let i = 0; i < n; i++) o.push(frStr(get(b, i))); return o; };
            return { curve: curve.name, kind, log_n: k, omega: frStr(w), input: vals.map(dec), fft: arr(bf), ifft: arr(bi) };
        });
    }
    case "pairing": {
        const a = rng.below(r - 1n) + 1n, b = rng.below(r - 1n) + 1n;
        const e1 = curve.pairing(curve.G1.g, curve.G2.g);
        const eab = curve.pairing(mul(curve.G1, curve.G1.g, a), mul(curve.G2, curve.G2.g, b));
        const e1ab = curve.Gt.exp(e1, (a * b) % r);
        if (!curve.Gt.eq(eab, e1ab)) fail("bilinearity check failed");
        if (!curve.Gt.eq(curve.Gt.exp(e1, r), curve.Gt.one)) fail("e(G1,G2)^r != 1");
        const gt = (x) => flat(curve.Gt.toObject(x));
        return { curve: curve.name, kind, a: dec(a), b: dec(b),
            e_g1_g2: gt(e1), e_aG1_bG2: gt(eab), e_g1_g2_pow_ab: gt(e1ab) };
    }
    default:
        throw new Error("unknown kind: " + kind + "\n" + USAGE);
    }
}

(async () => {
    const [curveName, kind, seed, nStr] = process.argv.slice(2);
    if (!curveName || !kind || seed === undefined) {
        process.stderr.write(USAGE + "\n");
        process.exit(2);
    }
    let nArg;
    if (nStr !== undefined) {
        if (!/^\d+$/.test(nStr)) { process.stderr.write("n must be a non-negative integer\n" + USAGE + "\n"); process.exit(2); }
        nArg = parseInt(nStr, 10);
    }
    let curve;
    try {
        curve = await buildCurve(curveName);
        const out = await main(curve, kind, seed, nArg);
        if (process.exitCode) {
            // a self-check failed: print nothing on stdout
        } else {
            process.stdout.write(JSON.stringify(out) + "\n");
        }
    } catch (e) {
        process.stderr.write((e && e.stack ? e.stack : String(e)) + "\n");
        process.exitCode = 1;
    } finally {
        if (curve) await curve.terminate();
    }
})();
