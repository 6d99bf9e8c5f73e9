#!/usr/bin/env node
// Benchmark of ffjavascript (snarkjs's arithmetic backend) for comparison with Proofline.
//
// Usage: node interop/ffjs/bench.cjs <bn128|bls12381> <msm-g1|msm-g2|ntt> <logSizes, e.g. 10,16,20> [reps=3]
//
// Uses the DEFAULT (multi-threaded, one worker per CPU) curve build. For every size it
// generates inputs (not timed), runs the operation once as warm-up, then times `reps` runs
// and prints one JSON line per size:
//   {"impl":"ffjavascript","curve":..,"op":..,"log":..,"ms_median":..,"ms_all":[..],"n":..,"threads":..}
//
// Timed operations (exactly what snarkjs's groth16 prover calls):
//   msm-g1 / msm-g2: G.multiExpAffine(bases, scalars)   bases: affine Montgomery LE (LEM),
//                    scalars: 32-byte canonical LE (non-Montgomery), uniform-ish < 2^253 < r
//   ntt:             Fr.fft(buff)                        buff: 2^log Montgomery LE Fr elements
// Inputs: bases are the consecutive multiples G, 2G, 3G, ... (repeated mixed addition, then
// one multi-threaded batchToAffine); scalars/field elements come from an AES-256-CTR stream
// keyed by SHA-256("proofline-bench"), so runs are reproducible.
"use strict";

const crypto = require("node:crypto");
const { performance } = require("node:perf_hooks");
const { buildBn128, buildBls12381 } = require("ffjavascript");

const USAGE = "usage: node bench.cjs <bn128|bls12381> <msm-g1|msm-g2|ntt> <logSizes comma separated> [reps]";

function randomStream(nBytes, label) {
    const key = crypto.createHash("sha256").update("proofline-bench:" + label).digest();
    const cipher = crypto.createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
    return new Uint8Array(cipher.update(Buffer.alloc(nBytes)));
}

// n 32-byte little-endian values < 2^253 (< r for both bn128 and bls12381)
function randomFrBytes(n, label) {
    const b = randomStream(n * 32, label);
    for (let i = 0; i < n; i++) b[i * 32 + 31] &= 0x1f;
    return b;
}

async function genBases(G, n) {
    const sJ = G.F.n8 * 3;
    const jac = new Uint8Array(n * sJ);
    const g = G.toAffine(G.g);
    let acc = G.toJacobian(g);
    for (let i = 0; i < n; i++) {
        jac.set(acc, i * sJ);
        acc = G.add(acc, g);           // Jacobian + affine (mixed) addition
    }
    return G.batchToAffine(jac);       // multi-threaded, LEM affine
}

const median = (a) => {
    const s = [...a].sort((x, y) => x - y);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x) => Math.round(x * 1000) / 1000;

(async () => {
    const [curveName, op, logsStr, repsStr] = process.argv.slice(2);
    if (!curveName || !op || !logsStr) { process.stderr.write(USAGE + "\n"); process.exit(2); }
    if (!["msm-g1", "msm-g2", "ntt"].includes(op)) { process.stderr.write("unknown op: " + op + "\n" + USAGE + "\n"); process.exit(2); }
    const logs = logsStr.split(",").map((s) => s.trim()).filter((s) => s.length).map(Number);
    if (!logs.length || logs.some((l) => !Number.isInteger(l) || l < 0 || l > 28)) {
        process.stderr.write("logSizes must be integers in [0,28]\n"); process.exit(2);
    }
    const reps = repsStr === undefined ? 3 : parseInt(repsStr, 10);
    if (!(reps >= 1)) { process.stderr.write("reps must be >= 1\n"); process.exit(2); }

    let curve;
    if (curveName === "bn128") curve = await buildBn128();
    else if (curveName === "bls12381") curve = await buildBls12381();
    else { process.stderr.write("unknown curve: " + curveName + "\n" + USAGE + "\n"); process.exit(2); }

    try {
        for (const log of logs) {
            const n = 1 << log;
            let run;
            if (op === "ntt") {
                const buff = randomFrBytes(n, "ntt:" + log);   // any value < r is a valid Montgomery repr
                run = () => curve.Fr.fft(buff);
            } else {
                const G = op === "msm-g1" ? curve.G1 : curve.G2;
                const t0 = performance.now();
                const bases = await genBases(G, n);
                const scalars = randomFrBytes(n, op + ":" + log);
                process.stderr.write(`[${curveName} ${op} 2^${log}] inputs generated in ${round(performance.now() - t0)} ms\n`);
                run = () => G.multiExpAffine(bases, scalars);
            }
            await run();                                      // warm-up
            const times = [];
            for (let i = 0; i < reps; i++) {
                const t = performance.now();
                await run();
                times.push(performance.now() - t);
            }
            process.stdout.write(JSON.stringify({
                impl: "ffjavascript", curve: curveName, op, log,
                ms_median: round(median(times)), ms_all: times.map(round),
                n, threads: curve.tm.concurrency,
            }) + "\n");
        }
    } finally {
        await curve.terminate();
    }
})().catch((e) => { process.stderr.write((e && e.stack ? e.stack : String(e)) + "\n"); process.exit(1); });
