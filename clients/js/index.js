'use strict';

// A client of the Proofline daemon's HTTP JSON API (/v1/, docs/daemon.md). It needs nothing but what
// Node.js 18 and later have built in: the global fetch, and Buffer for base64 (btoa where there is none).
// `prove` returns what snarkjs's groth16.fullProve returns, so a snarkjs user swaps one call.

const PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'CRITICAL'];
// A wait is sent as several requests of at most this long each: the daemon bounds one wait by its
// limits.max_await anyway, and proxies in between tend to close a request that is silent for minutes.
const WAIT_PER_REQUEST_MS = 30_000;

/** A failure the daemon answered with, or one on the way to it: `code` is the JSON API's (gRPC's) code. */
class ProoflineError extends Error {
  constructor(code, message, status, options) {
    super(message, options);
    this.name = 'ProoflineError';
    /** e.g. 'INVALID_ARGUMENT', 'NOT_FOUND', 'CANCELLED'; 'TIMEOUT' when await's timeoutMs passed. */
    this.code = code;
    /** The HTTP status of the answer; undefined when there was none. */
    this.status = status;
  }
}

class Proofline {
  /**
   * @param {{url: string, token?: string, fetch?: typeof fetch}} options the daemon's HTTP address,
   *   e.g. 'http://127.0.0.1:8080', and its server.auth_token if it has one
   */
  constructor({ url, token, fetch: fetchImpl } = {}) {
    if (typeof url !== 'string' || url === '') {
      throw new TypeError("Proofline: 'url' is required, e.g. 'http://127.0.0.1:8080'");
    }
    this.url = url.replace(/\/+$/, '');
    this.token = token || '';
    this.fetch = fetchImpl || globalThis.fetch;
    if (typeof this.fetch !== 'function') {
      throw new TypeError('Proofline: no global fetch (Node.js 18 or later has one); pass options.fetch');
    }
  }

  /**
   * Proves one witness (a .wtns as Uint8Array or Buffer) or one circom input object (as fullProve takes;
   * the circuit needs circuit.wasm on the daemon): submit, then await. Resolves to {proof, publicSignals}
   * as snarkjs's groth16.fullProve does.
   */
  async prove(circuitId, inputOrWtns, options = {}) {
    if (Array.isArray(inputOrWtns)) {
      throw new TypeError('prove takes one input or witness; submit takes an array of them');
    }
    const jobId = await this.submit(circuitId, inputOrWtns, options);
    const [{ proof, publicSignals }] = await this.await(jobId, options);
    return { proof, publicSignals };
  }

  /**
   * Queues a job and resolves to its id. `partitions` is one input or witness, or an array of them (one
   * proof each). options: priority ('LOW' | 'NORMAL' | 'HIGH' | 'CRITICAL'), idempotencyKey (a second
   * submission with the same key names the first job), deadlineMs (the job fails DEADLINE_EXCEEDED
   * after this long).
   */
  async submit(circuitId, partitions, { priority, idempotencyKey, deadlineMs } = {}) {
    if (typeof circuitId !== 'string' || circuitId === '') {
      throw new TypeError('the circuit id must be a non-empty string');
    }
    const body = {
      circuit: circuitId,
      partitions: (Array.isArray(partitions) ? partitions : [partitions]).map(partition),
    };
    if (priority !== undefined) {
      if (!PRIORITIES.includes(String(priority).toUpperCase())) {
        throw new TypeError(`priority must be one of ${PRIORITIES.join(', ')}, not '${priority}'`);
      }
      body.priority = String(priority).toUpperCase();
    }
    if (idempotencyKey !== undefined) {
      body.idempotency_key = String(idempotencyKey);
    }
    if (deadlineMs !== undefined) {
      if (!Number.isSafeInteger(deadlineMs) || deadlineMs < 0) {
        throw new TypeError('deadlineMs must be a whole number of milliseconds, at least 0');
      }
      body.deadline_ms = deadlineMs;
    }
    const submitted = await this.#request('POST', '/v1/jobs', JSON.stringify(body, bigintsAsStrings));
    return submitted.job_id;
  }

  /**
   * Waits for a job to end and resolves to its proofs, one {partition, proof, publicSignals, timings} per
   * partition in order. Rejects with the job's code when it failed, was cancelled or passed its deadline,
   * and with code 'TIMEOUT' when timeoutMs passes first (the job goes on; await it again).
   */
  async await(jobId, { timeoutMs = Infinity } = {}) {
    const end = Date.now() + timeoutMs;
    const path = '/v1/jobs/' + encodeURIComponent(jobId);
    const timedOut = () => new ProoflineError('TIMEOUT', `job ${jobId} has not ended after ${timeoutMs} ms`);
    // the daemon's answer to a wait can come late when its CPUs are busy proving: timeoutMs is kept here
    const abort = new AbortController();
    const timer = Number.isFinite(timeoutMs) ? setTimeout(() => abort.abort(), Math.max(0, timeoutMs)) : undefined;
    try {
      for (;;) {
        const wait = Math.max(0, Math.min(WAIT_PER_REQUEST_MS, end - Date.now()));
        let job;
        try {
          job = await this.#request('GET', `${path}?wait_ms=${Math.floor(wait)}`, undefined, abort.signal);
        } catch (e) {
          throw abort.signal.aborted ? timedOut() : e;
        }
        if (job.state === 'DONE') {
          return job.partitions.map((p) => ({
            partition: p.partition,
            proof: p.proof,
            publicSignals: p.public_signals,
            timings: p.timings,
          }));
        }
        if (Date.now() >= end) {
          throw timedOut();
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Cancels a job; resolves to its state afterwards ('CANCELLED', or how it had ended). */
  async cancel(jobId) {
    const r = await this.#request('DELETE', '/v1/jobs/' + encodeURIComponent(jobId));
    return r.state;
  }

  /** The daemon's circuits: [{id, kind, hasWasm, hasR1cs, curve?}]. */
  async circuits() {
    const r = await this.#request('GET', '/v1/circuits');
    return r.circuits.map((c) => {
      const out = { id: c.id, kind: c.kind, hasWasm: c.has_wasm, hasR1cs: c.has_r1cs };
      if (c.curve !== undefined) {
        out.curve = c.curve;
      }
      return out;
    });
  }

  async #request(method, path, body, signal) {
    const headers = { accept: 'application/json' };
    if (this.token) {
      headers.authorization = 'Bearer ' + this.token;
    }
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    let response;
    try {
      response = await this.fetch(this.url + path, { method, headers, body, signal });
    } catch (e) {
      throw new ProoflineError('UNAVAILABLE', `cannot reach ${this.url}: ${e.message}`, undefined, { cause: e });
    }
    const text = await response.text(); // may throw when aborted: await turns that into TIMEOUT
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      // not the JSON API (a proxy's page, a 413 before the body was read): the status says what happened
      throw new ProoflineError(codeOf(response.status), `${method} ${path}: HTTP ${response.status}: ${text.slice(0, 200)}`,
        response.status);
    }
    if (!response.ok) {
      const e = json && json.error;
      throw new ProoflineError(e && e.code ? e.code : codeOf(response.status),
        e && e.message ? e.message : `HTTP ${response.status}`, response.status);
    }
    return json;
  }
}

/** One partition as the JSON API takes it: {"wtns": base64} for a witness's bytes, {"input": {...}} otherwise. */
function partition(p) {
  if (p instanceof ArrayBuffer) {
    p = new Uint8Array(p);
  }
  if (p instanceof Uint8Array) {
    return { wtns: base64(p) };
  }
  if (p !== null && typeof p === 'object' && !Array.isArray(p)) {
    return { input: p };
  }
  throw new TypeError('a partition is a .wtns (Uint8Array, Buffer, ArrayBuffer) or a circom input object, not '
    + (p === null ? 'null' : Array.isArray(p) ? 'an array' : typeof p));
}

function base64(bytes) {
  if (typeof Buffer === 'function') {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** circom inputs may be BigInts, as fullProve takes them; JSON has no BigInt, the daemon takes decimal strings. */
function bigintsAsStrings(key, value) {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** The code for an answer that carried none: the JSON API's own table (docs/daemon.md) read backwards. */
function codeOf(status) {
  switch (status) {
    case 400: return 'INVALID_ARGUMENT';
    case 401: return 'UNAUTHENTICATED';
    case 403: return 'PERMISSION_DENIED';
    case 404: return 'NOT_FOUND';
    case 413: case 429: return 'RESOURCE_EXHAUSTED';
    case 503: return 'UNAVAILABLE';
    default: return 'UNKNOWN';
  }
}

module.exports = { Proofline, ProoflineError };
