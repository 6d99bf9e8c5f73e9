#!/usr/bin/env node
// Reference values for Proofline's Poseidon (r1cs/src/main/java/dev/proofline/r1cs/gadgets) from
// circomlibjs, the JavaScript side of circomlib (BN254 only).
//
// Usage (in interop/):
//   node gadgets/poseidon.cjs constants
//       {"C": [per t = 2..17: [(RF + RP) t round constants]], "M": [per t: t x t MDS matrix]}
//       read from circomlibjs's poseidon_constants (the constants buildPoseidonReference uses).
//   node gadgets/poseidon.cjs hash <seed> [cases per input count = 4]
//       {"cases": [{"inputs": [..], "out": ".."}]} for 1 .. 16 inputs: all zeros, all r - 1, then
//       random inputs; out = buildPoseidon()(inputs) (the WASM build circomlibjs exports), checked
//       against buildPoseidonReference and buildPoseidonOpt (exit 1 when they disagree).
//
// All numbers are canonical decimal strings. Random inputs: SHA-256(seed + ":" + counter), two
// blocks as a 512-bit integer, mod r.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const crypto = require("node:crypto");
const circomlibjs = require("circomlibjs");

const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const USAGE = "usage: node gadgets/poseidon.cjs constants | hash <seed> [cases]";

class Prng {
    constructor(seed) { this.seed = String(seed); this.counter = 0; }
    block() {
        return crypto.createHash("sha256").update(this.seed + ":" + (this.counter++)).digest("hex");
    }
    below(m) { return BigInt("0x" + this.block() + this.block()) % m; }
}

function constants() {
    const src = path.join(path.dirname(require.resolve("circomlibjs")), "..", "src", "poseidon_constants.json");
    const j = JSON.parse(fs.readFileSync(src, "utf8"));
    const dec = (h) => BigInt(h).toString(10);
    return { C: j.C.map((row) => row.map(dec)), M: j.M.map((m) => m.map((row) => row.map(dec))) };
}

async function hashes(seed, per) {
    const poseidon = await circomlibjs.buildPoseidon();
    const reference = await circomlibjs.buildPoseidonReference();
    const opt = await circomlibjs.buildPoseidonOpt();
    const rng = new Prng(seed);
    const cases = [];
    for (let n = 1; n <= 16; n++) {
        const inputSets = [Array(n).fill(0n), Array(n).fill(R - 1n)];
        for (let k = 0; k < per; k++) {
            inputSets.push(Array.from({ length: n }, () => rng.below(R)));
        }
        for (const inputs of inputSets) {
            const out = poseidon.F.toObject(poseidon(inputs)).toString(10);
            const r = reference.F.toObject(reference(inputs)).toString(10);
            const o = opt.F.toObject(opt(inputs)).toString(10);
            if (r !== out || o !== out) {
                throw new Error("circomlibjs's Poseidon builds disagree on " + inputs.join(","));
            }
            cases.push({ inputs: inputs.map((x) => x.toString(10)), out });
        }
    }
    return { cases };
}

async function main(argv) {
    const [kind, seed, perArg] = argv;
    let out;
    if (kind === "constants") {
        out = constants();
    } else if (kind === "hash" && seed !== undefined) {
        const per = perArg === undefined ? 4 : Number(perArg);
        if (!Number.isInteger(per) || per < 0) throw new Error("cases must be a non-negative integer\n" + USAGE);
        out = await hashes(seed, per);
    } else {
        throw new Error(USAGE);
    }
    process.stdout.write(JSON.stringify(out) + "\n");
}

main(process.argv.slice(2)).catch((e) => {
    process.stderr.write((e && e.stack ? e.stack : String(e)) + "\n");
    process.exitCode = 1;
});
