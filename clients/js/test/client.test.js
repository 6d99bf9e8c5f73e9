'use strict';

// The client against a running daemon, its proofs checked by snarkjs. The daemon and the circuit come from
// the environment (JsClientTest in the daemon module starts one and sets these):
//   PROOFLINE_URL, PROOFLINE_TOKEN   the daemon's HTTP address and token
//   PROOFLINE_CIRCUIT                a circom circuit registered with its wasm
//   PROOFLINE_WASM, PROOFLINE_ZKEY, PROOFLINE_VK, PROOFLINE_INPUT   that circuit's files
//   PROOFLINE_SNARKJS                snarkjs 0.7.6 (default: the one interop/ installs)

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Proofline, ProoflineError } = require('..');

const env = (name) => {
  const v = process.env[name];
  assert.ok(v, `${name} is not set: run this through JsClientTest, or set it to a running daemon's`);
  return v;
};
const snarkjsDir = process.env.PROOFLINE_SNARKJS || path.join(__dirname, '../../../interop/node_modules/snarkjs');
const snarkjs = require(snarkjsDir);
const circuit = env('PROOFLINE_CIRCUIT');
const wasm = env('PROOFLINE_WASM');
const zkey = env('PROOFLINE_ZKEY');
const vk = JSON.parse(fs.readFileSync(env('PROOFLINE_VK'), 'utf8'));
const input = JSON.parse(fs.readFileSync(env('PROOFLINE_INPUT'), 'utf8'));
const client = new Proofline({ url: env('PROOFLINE_URL'), token: env('PROOFLINE_TOKEN') });

after(async () => {
  // snarkjs keeps its curve's worker threads until told otherwise, and they would keep this process alive
  await globalThis.curve_bn128?.terminate();
});

/** What snarkjs makes of the same input: the reference for shapes and public signals. */
const reference = snarkjs.groth16.fullProve(input, wasm, zkey);

async function witnessOf(circomInput) {
  const wtns = { type: 'mem' };
  await snarkjs.wtns.calculate(circomInput, wasm, wtns);
  return wtns.data;
}

/** The proof has fullProve's shape, its public signals are snarkjs's, and snarkjs verifies it. */
async function assertLikeFullProve(result) {
  const expected = await reference;
  assert.deepEqual(Object.keys(result).sort(), ['proof', 'publicSignals']);
  assert.deepEqual(result.publicSignals, expected.publicSignals);
  assert.deepEqual(Object.keys(result.proof).sort(), Object.keys(expected.proof).sort());
  assert.equal(result.proof.protocol, 'groth16');
  assert.equal(result.proof.curve, expected.proof.curve);
  for (const k of ['pi_a', 'pi_c']) {
    assert.equal(result.proof[k].length, 3);
    result.proof[k].forEach((x) => assert.match(x, /^[0-9]+$/));
  }
  assert.equal(result.proof.pi_b.length, 3);
  result.proof.pi_b.forEach((pair) => pair.forEach((x) => assert.match(x, /^[0-9]+$/)));
  assert.equal(await snarkjs.groth16.verify(vk, result.publicSignals, result.proof), true,
    'snarkjs rejects the proof');
  // and a public signal changed makes it fail: the check above is a real one
  const other = [...result.publicSignals];
  other[0] = (BigInt(other[0]) + 1n).toString();
  assert.equal(await snarkjs.groth16.verify(vk, other, result.proof), false);
}

test('the circuit is listed, with its wasm', async () => {
  const listed = (await client.circuits()).find((c) => c.id === circuit);
  assert.ok(listed, `${circuit} is not listed`);
  assert.equal(listed.hasWasm, true);
  assert.equal(typeof listed.kind, 'string');
});

test('prove with a circom input object returns what fullProve returns, and snarkjs verifies it', async () => {
  await assertLikeFullProve(await client.prove(circuit, input));
});

test('inputs as BigInts are proved as their decimal strings are', async () => {
  const big = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, BigInt(v)]));
  await assertLikeFullProve(await client.prove(circuit, big));
});

test('prove with a .wtns as Uint8Array and as Buffer', async () => {
  const wtns = await witnessOf(input);
  assert.ok(wtns instanceof Uint8Array);
  await assertLikeFullProve(await client.prove(circuit, new Uint8Array(wtns)));
  await assertLikeFullProve(await client.prove(circuit, Buffer.from(wtns)));
});

test('submit with options, then await: a repeated idempotency key names the first job', async () => {
  const options = { priority: 'high', idempotencyKey: `js-${process.pid}-${Date.now()}`, deadlineMs: 600_000 };
  const wtns = await witnessOf(input);
  const id = await client.submit(circuit, [wtns, input], options);
  assert.equal(await client.submit(circuit, [wtns, input], options), id);
  const results = await client.await(id, { timeoutMs: 120_000 });
  assert.deepEqual(results.map((r) => r.partition), [0, 1]);
  for (const r of results) {
    assert.ok(r.timings.total_ms >= 0);
    await assertLikeFullProve({ proof: r.proof, publicSignals: r.publicSignals });
  }
});

test('cancel: the job ends CANCELLED and await rejects with that code; a short await times out first', async () => {
  const wtns = await witnessOf(input);
  const id = await client.submit(circuit, Array(200).fill(wtns), { priority: 'LOW' });
  await assert.rejects(client.await(id, { timeoutMs: 1 }), (e) => e instanceof ProoflineError && e.code === 'TIMEOUT');
  assert.equal(await client.cancel(id), 'CANCELLED');
  await assert.rejects(client.await(id, { timeoutMs: 60_000 }), (e) => {
    assert.ok(e instanceof ProoflineError);
    assert.equal(e.code, 'CANCELLED');
    assert.equal(e.status, 409);
    return true;
  });
});

test('a job past its deadline rejects with DEADLINE_EXCEEDED', async () => {
  const wtns = await witnessOf(input);
  const id = await client.submit(circuit, Array(200).fill(wtns), { priority: 'LOW', deadlineMs: 1 });
  await assert.rejects(client.await(id, { timeoutMs: 60_000 }), { name: 'ProoflineError', code: 'DEADLINE_EXCEEDED' });
});

test('an unknown circuit or job is NOT_FOUND, with the daemon\'s message', async () => {
  await assert.rejects(client.prove('no-such-circuit', input), (e) => {
    assert.ok(e instanceof ProoflineError && e instanceof Error);
    assert.equal(e.code, 'NOT_FOUND');
    assert.equal(e.status, 404);
    assert.match(e.message, /no-such-circuit/);
    return true;
  });
  await assert.rejects(client.cancel('no-such-job'), { code: 'NOT_FOUND', status: 404 });
});

test('bad inputs are INVALID_ARGUMENT: a missing signal, a witness that is not a .wtns', async () => {
  const { a } = input;
  await assert.rejects(client.prove(circuit, { a }), (e) => {
    assert.ok(e instanceof ProoflineError, String(e));
    assert.equal(e.code, 'INVALID_ARGUMENT', e.message);
    assert.equal(e.status, 400);
    return true;
  });
  await assert.rejects(client.prove(circuit, new TextEncoder().encode('not a witness')),
    { code: 'INVALID_ARGUMENT', status: 400 });
  // what is neither is refused before anything is sent
  await assert.rejects(client.prove(circuit, 'input.json'), TypeError);
  await assert.rejects(client.submit(circuit, input, { priority: 'URGENT' }), TypeError);
});

test('a wrong token is UNAUTHENTICATED', async () => {
  const stranger = new Proofline({ url: env('PROOFLINE_URL'), token: 'wrong' });
  await assert.rejects(stranger.circuits(), { code: 'UNAUTHENTICATED', status: 401 });
});
