// Types of the Proofline client (index.js). Written by hand; the shapes are those of the daemon's JSON API
// (GET /v1/openapi.json) and of snarkjs's groth16.fullProve.

/** A Groth16 proof as snarkjs writes proof.json: coordinates as decimal strings. */
export interface Groth16Proof {
  pi_a: [string, string, string];
  pi_b: [[string, string], [string, string], [string, string]];
  pi_c: [string, string, string];
  protocol: 'groth16';
  curve: string;
}

/** What prove() resolves to, as snarkjs's groth16.fullProve: the proof and public.json's signals. */
export interface FullProveResult {
  proof: Groth16Proof;
  publicSignals: string[];
}

/** How long each stage of a partition took, in milliseconds. */
export interface Timings {
  queue_wait_ms: number;
  synthesis_ms: number;
  prover_wait_ms: number;
  prover_ms: number;
  finalize_ms: number;
  total_ms: number;
}

/** One partition of an ended job. */
export interface PartitionProof extends FullProveResult {
  partition: number;
  timings?: Timings;
}

/** A circom input, as fullProve takes it: signal names to values, arrays of them, or nested objects. */
export type CircomInput = { [signal: string]: CircomValue };
export type CircomValue = string | number | bigint | boolean | CircomValue[] | { [key: string]: CircomValue };

/** A witness as circom's generator writes it (.wtns bytes), or a circom input (the circuit needs its wasm). */
export type InputOrWtns = Uint8Array | ArrayBuffer | CircomInput;

export type Priority = 'LOW' | 'NORMAL' | 'HIGH' | 'CRITICAL' | 'low' | 'normal' | 'high' | 'critical';

export interface SubmitOptions {
  priority?: Priority;
  /** A second submission with the same key resolves to the first job's id. */
  idempotencyKey?: string;
  /** The job fails with DEADLINE_EXCEEDED after this many milliseconds; 0: none. */
  deadlineMs?: number;
}

export interface AwaitOptions {
  /** Reject with code 'TIMEOUT' after this many milliseconds (the job goes on); default: wait for ever. */
  timeoutMs?: number;
}

export interface Circuit {
  id: string;
  kind: string;
  hasWasm: boolean;
  hasR1cs: boolean;
  curve?: string;
}

export interface ProoflineOptions {
  /** The daemon's HTTP address, e.g. 'http://127.0.0.1:8080'. */
  url: string;
  /** The daemon's server.auth_token, sent as a bearer token. */
  token?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/**
 * A failure: the daemon's answer ({"error": {code, message}}), or 'UNAVAILABLE' when it cannot be
 * reached, or 'TIMEOUT' when await's timeoutMs passed.
 */
export class ProoflineError extends Error {
  constructor(code: string, message: string, status?: number, options?: { cause?: unknown });
  readonly name: 'ProoflineError';
  /** e.g. 'INVALID_ARGUMENT', 'NOT_FOUND', 'CANCELLED', 'DEADLINE_EXCEEDED', 'UNAUTHENTICATED'. */
  readonly code: string;
  /** The HTTP status of the daemon's answer; undefined when there was none. */
  readonly status?: number;
}

export class Proofline {
  constructor(options: ProoflineOptions);
  readonly url: string;
  /** Submits one witness or input and awaits its proof: what snarkjs's groth16.fullProve returns. */
  prove(circuitId: string, inputOrWtns: InputOrWtns, options?: SubmitOptions & AwaitOptions): Promise<FullProveResult>;
  /** Queues a job of one partition, or one per element of an array; resolves to its id. */
  submit(circuitId: string, partitions: InputOrWtns | InputOrWtns[], options?: SubmitOptions): Promise<string>;
  /** Waits for a job to end: one result per partition, in order. */
  await(jobId: string, options?: AwaitOptions): Promise<PartitionProof[]>;
  /** Cancels a job; resolves to its state afterwards, 'CANCELLED' unless it had already ended. */
  cancel(jobId: string): Promise<string>;
  /** The circuits the daemon serves. */
  circuits(): Promise<Circuit[]>;
}
