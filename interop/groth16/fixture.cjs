#!/usr/bin/env node
// Builds the snarkjs Groth16 artefacts for one circuit of groth16/circuits on one curve and
// prints one JSON manifest (absolute paths) on stdout:
//
//   node groth16/fixture.cjs <cacheDir> <bn128|bls12381> <circuit> [--ptau FILE]
//
// {curve, circuit, constraints, power, r1cs, wasm, zkey, vk, input, wtns, proof, public, sourceHash}
//
// Steps: circom2 (--r1cs --wasm --prime <curve>), a small powers of tau made by snarkjs
// (cached in <cacheDir>/ptau/<curve>_<power>.ptau and shared by all circuits; --ptau uses a
// given prepared one instead), groth16 setup + one zkey contribution, vk export, witness,
// proof. Everything is built in a temporary directory that is renamed to
// <cacheDir>/<curve>/<circuit> only once complete, so an interrupted run leaves nothing that
// looks finished. A finished directory is reused while the hash of (circuit source, input
// json, curve, ptau choice) stored in its manifest.json still matches.
//
// Failure: message on stderr, exit code 1, nothing on stdout.
"use strict";

const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const { spawnSync } = require("child_process");

// Bump when the build steps change so that old caches are rebuilt.
const FORMAT = 1;
const CURVES = ["bn128", "bls12381"];
const INTEROP = path.resolve(__dirname, "..");
const CIRCUITS = path.join(__dirname, "circuits");
const NODE_MODULES = path.join(INTEROP, "node_modules");
const SNARKJS = path.join(NODE_MODULES, "snarkjs", "build", "cli.cjs");
const CIRCOM = path.join(NODE_MODULES, "circom2", "cli.js");
const ENTROPY = "proofline interop fixture";

class UsageError extends Error {}
class ToolError extends Error {}

function usage(msg) {
    throw new UsageError(
        (msg ? msg + "\n" : "") +
            "usage: node groth16/fixture.cjs <cacheDir> <bn128|bls12381> <circuit> [--ptau FILE]"
    );
}

function parseArgs(argv) {
    const pos = [];
    let ptau = null;
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === "--ptau") {
            if (i + 1 >= argv.length) usage("--ptau needs a file");
            ptau = path.resolve(argv[++i]);
        } else if (a.startsWith("--ptau=")) {
            ptau = path.resolve(a.slice("--ptau=".length));
        } else if (a.startsWith("-")) {
            usage("unknown option " + a);
        } else {
            pos.push(a);
        }
    }
    if (pos.length !== 3) usage();
    const [cacheDir, curve, circuit] = pos;
    if (!CURVES.includes(curve)) usage("unknown curve " + curve);
    if (!/^[A-Za-z0-9_-]+$/.test(circuit)) usage("bad circuit name " + circuit);
    if (ptau !== null && !fs.existsSync(ptau)) usage("no such ptau file " + ptau);
    return { cacheDir: path.resolve(cacheDir), curve, circuit, ptau };
}

// Runs `node script args...` in interop/; throws with the tool's output on failure. Some snarkjs
// commands exit 0 after logging an error (groth16 setup with a ptau of the other curve, or one
// that is too small), so an "[ERROR]" log line counts as a failure too.
function runNode(script, args, what) {
    const res = spawnSync(process.execPath, [script, ...args], {
        cwd: INTEROP,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        stdio: ["ignore", "pipe", "pipe"],
    });
    if (res.error) throw new ToolError(`${what}: ${res.error.message}`);
    const out = (res.stdout + res.stderr).replace(/\x1b\[[0-9;]*m/g, "").trim();
    if (res.status !== 0 || /^\[ERROR\]/m.test(out)) {
        throw new ToolError(`${what} failed (exit ${res.status === null ? res.signal : res.status}):\n${out}`);
    }
    return res.stdout;
}

const snarkjs = (args, what) => runNode(SNARKJS, args, what || "snarkjs " + args.slice(0, 2).join(" "));

// The header section (type 1) of a .r1cs file.
function readR1csHeader(file) {
    const buf = fs.readFileSync(file);
    if (buf.toString("latin1", 0, 4) !== "r1cs") throw new Error(file + " is not an r1cs file");
    const nSections = buf.readUInt32LE(8);
    let off = 12;
    for (let s = 0; s < nSections; s++) {
        const type = buf.readUInt32LE(off);
        const size = Number(buf.readBigUInt64LE(off + 4));
        off += 12;
        if (type === 1) {
            const n8 = buf.readUInt32LE(off);
            let p = off + 4 + n8;
            const h = { n8 };
            h.nWires = buf.readUInt32LE(p);
            h.nOutputs = buf.readUInt32LE(p + 4);
            h.nPubInputs = buf.readUInt32LE(p + 8);
            h.nPrvInputs = buf.readUInt32LE(p + 12);
            h.nLabels = Number(buf.readBigUInt64LE(p + 16));
            h.nConstraints = buf.readUInt32LE(p + 24);
            return h;
        }
        off += size;
    }
    throw new Error(file + " has no header section");
}

// The Groth16 domain power snarkjs uses (zkey_new.js): 2^power >= nConstraints + nPub + nOut + 1.
function domainPower(h) {
    const n = h.nConstraints + h.nPubInputs + h.nOutputs + 1;
    let power = 1;
    while (2 ** power < n) power++;
    return power;
}

function sha256(...parts) {
    const h = crypto.createHash("sha256");
    for (const p of parts) {
        h.update(String(p.length) + ":");
        h.update(p);
    }
    return h.digest("hex");
}

function rmrf(p) {
    fs.rmSync(p, { recursive: true, force: true });
}

function tmpName(dir, base) {
    return path.join(dir, `.${base}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`);
}

// Removes the temporary directories of builders that are no longer running (killed mid-build).
function removeStaleTmp(dir) {
    let names;
    try {
        names = fs.readdirSync(dir);
    } catch (e) {
        return;
    }
    for (const name of names) {
        const m = /^\..*\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
        if (!m || Number(m[1]) === process.pid) continue;
        let alive = true;
        try {
            process.kill(Number(m[1]), 0);
        } catch (e) {
            alive = e.code === "EPERM";
        }
        if (!alive) rmrf(path.join(dir, name));
    }
}

// A prepared ptau of exactly this power, made once per curve and power.
function ensurePtau(cacheDir, curve, power) {
    const dir = path.join(cacheDir, "ptau");
    removeStaleTmp(dir);
    const file = path.join(dir, `${curve}_${power}.ptau`);
    if (fs.existsSync(file)) return file;
    fs.mkdirSync(dir, { recursive: true });
    const work = tmpName(dir, `${curve}_${power}`);
    fs.mkdirSync(work);
    try {
        const p0 = path.join(work, "0.ptau");
        const p1 = path.join(work, "1.ptau");
        const p2 = path.join(work, "final.ptau");
        snarkjs(["powersoftau", "new", curve, String(power), p0]);
        snarkjs(["powersoftau", "contribute", p0, p1, "--name=proofline fixture", "-e=" + ENTROPY]);
        snarkjs(["powersoftau", "prepare", "phase2", p1, p2]);
        fs.renameSync(p2, file); // atomic; a concurrent builder just replaces an equivalent file
    } finally {
        rmrf(work);
    }
    return file;
}

function readManifest(dir, hash) {
    try {
        const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
        if (m.sourceHash !== hash) return null;
        for (const k of ["r1cs", "wasm", "zkey", "vk", "input", "wtns", "proof", "public"]) {
            if (typeof m[k] !== "string" || !fs.existsSync(m[k])) return null;
        }
        return m;
    } catch (e) {
        return null;
    }
}

function build(opts) {
    const { cacheDir, curve, circuit } = opts;
    const source = path.join(CIRCUITS, circuit + ".circom");
    const inputSrc = path.join(CIRCUITS, circuit + ".input.json");
    if (!fs.existsSync(source)) usage("no circuit " + source);
    if (!fs.existsSync(inputSrc)) usage("no input " + inputSrc);
    for (const f of [SNARKJS, CIRCOM]) {
        if (!fs.existsSync(f)) throw new Error(`${f} not found: run \`npm ci\` in ${INTEROP}`);
    }

    const inputText = fs.readFileSync(inputSrc);
    JSON.parse(inputText); // fail early on a broken input file
    const hash = sha256(
        "format " + FORMAT,
        fs.readFileSync(source),
        inputText,
        curve,
        opts.ptau === null ? "ptau:own" : "ptau:" + opts.ptau
    );

    const curveDir = path.join(cacheDir, curve);
    const finalDir = path.join(curveDir, circuit);
    const cached = readManifest(finalDir, hash);
    if (cached) return cached;

    fs.mkdirSync(curveDir, { recursive: true });
    removeStaleTmp(curveDir);
    const work = tmpName(curveDir, circuit);
    fs.mkdirSync(work);
    try {
        // Files inside `work`; the manifest names them at their final place.
        const rel = {
            r1cs: `${circuit}.r1cs`,
            wasm: path.join(`${circuit}_js`, `${circuit}.wasm`),
            zkey: `${circuit}.zkey`,
            vk: "verification_key.json",
            input: "input.json",
            wtns: `${circuit}.wtns`,
            proof: "proof.json",
            public: "public.json",
        };
        const w = (k) => path.join(work, rel[k]);

        runNode(
            CIRCOM,
            [source, "--r1cs", "--wasm", "--prime", curve, "-l", NODE_MODULES, "-o", work],
            "circom2 " + circuit
        );
        const header = readR1csHeader(w("r1cs"));
        const power = domainPower(header);
        const ptau = opts.ptau !== null ? opts.ptau : ensurePtau(cacheDir, curve, power);

        const zkey0 = path.join(work, `${circuit}_0000.zkey`);
        snarkjs(["groth16", "setup", w("r1cs"), ptau, zkey0]);
        snarkjs(["zkey", "contribute", zkey0, w("zkey"), "--name=proofline fixture", "-e=" + ENTROPY]);
        fs.rmSync(zkey0);
        snarkjs(["zkey", "export", "verificationkey", w("zkey"), w("vk")]);

        fs.writeFileSync(w("input"), inputText);
        snarkjs(["wtns", "calculate", w("wasm"), w("input"), w("wtns")]);
        snarkjs(["groth16", "prove", w("zkey"), w("wtns"), w("proof"), w("public")]);

        const manifest = {
            curve,
            circuit,
            constraints: header.nConstraints,
            power,
        };
        for (const k of Object.keys(rel)) manifest[k] = path.join(finalDir, rel[k]);
        manifest.sourceHash = hash;
        fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");

        // Swap the finished directory in. If another builder finished first, keep its result
        // (its caller may be reading it); move a stale one aside first (renaming a directory
        // onto a non-empty one fails).
        const earlier = readManifest(finalDir, hash);
        if (earlier) return earlier;
        if (fs.existsSync(finalDir)) {
            const old = tmpName(curveDir, circuit + ".old");
            try {
                fs.renameSync(finalDir, old);
                rmrf(old);
            } catch (e) {
                if (e.code !== "ENOENT") throw e;
            }
        }
        try {
            fs.renameSync(work, finalDir);
        } catch (e) {
            const theirs = readManifest(finalDir, hash);
            if (theirs) return theirs;
            throw e;
        }
        return manifest;
    } finally {
        rmrf(work);
    }
}

function main() {
    let out;
    try {
        out = JSON.stringify(build(parseArgs(process.argv.slice(2))));
    } catch (e) {
        process.stderr.write("fixture.cjs: " + (e instanceof UsageError || e instanceof ToolError ? e.message : e.stack || e) + "\n");
        process.exit(1);
    }
    process.stdout.write(out + "\n");
}

main();
