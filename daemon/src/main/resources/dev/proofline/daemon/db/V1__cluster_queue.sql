-- The cluster's durable job queue: jobs, their partitions (claimed by nodes under leases), the nodes
-- and their heartbeats, and the nodes' refusals to prove against a key that differs from theirs.

CREATE TABLE nodes (
    node_id       text PRIMARY KEY,
    grpc_address  text NOT NULL,
    http_address  text NOT NULL,
    backend       text NOT NULL,
    started_at    timestamptz NOT NULL DEFAULT now(),
    heartbeat_at  timestamptz NOT NULL DEFAULT now(),
    stopped_at    timestamptz,
    permits_max   integer NOT NULL DEFAULT 0,
    permits_in_use integer NOT NULL DEFAULT 0,
    claimed       integer NOT NULL DEFAULT 0,
    proofs        bigint NOT NULL DEFAULT 0,
    prover_busy   double precision NOT NULL DEFAULT 0,
    circuits      text NOT NULL DEFAULT ''
);

CREATE SEQUENCE job_numbers;
CREATE SEQUENCE lease_tokens;

CREATE TABLE jobs (
    job_id          text PRIMARY KEY,
    idempotency_key text UNIQUE,
    circuit_id      text NOT NULL,
    key_digest      text NOT NULL,
    priority        integer NOT NULL,
    partitions      integer NOT NULL,
    done            integer NOT NULL DEFAULT 0,
    -- RUNNING, DONE, FAILED, CANCELLED, DEADLINE_EXCEEDED
    state           text NOT NULL DEFAULT 'RUNNING',
    error           text,
    submitted_by    text NOT NULL,
    submitted_at    timestamptz NOT NULL DEFAULT now(),
    deadline_at     timestamptz,
    ended_at        timestamptz,
    fetched_at      timestamptz
);

CREATE INDEX jobs_running_deadline ON jobs (deadline_at) WHERE state = 'RUNNING' AND deadline_at IS NOT NULL;
CREATE INDEX jobs_ended ON jobs (ended_at) WHERE state <> 'RUNNING';

CREATE TABLE partitions (
    job_id         text NOT NULL REFERENCES jobs ON DELETE CASCADE,
    idx            integer NOT NULL,
    seq            bigserial,
    circuit_id     text NOT NULL,
    key_digest     text NOT NULL,
    priority       integer NOT NULL,
    -- wtns (snarkjs .wtns bytes) or input_json (UTF-8 circom inputs)
    kind           text NOT NULL,
    payload        bytea,
    -- QUEUED, CLAIMED, DONE, FAILED, CANCELLED
    state          text NOT NULL DEFAULT 'QUEUED',
    submitted_at   timestamptz NOT NULL,
    deadline_at    timestamptz,
    lease_owner    text,
    lease_token    bigint,
    lease_expires  timestamptz,
    claims         integer NOT NULL DEFAULT 0,
    claimed_at     timestamptz,
    proved_by      text,
    proof_json     text,
    proof_binary   bytea,
    public_signals text[],
    -- queue wait, synthesis, prover wait, prover, finalize, total (ms)
    timings        double precision[],
    error          text,
    PRIMARY KEY (job_id, idx)
);

CREATE INDEX partitions_queued ON partitions (priority DESC, seq) WHERE state = 'QUEUED';
CREATE INDEX partitions_leases ON partitions (lease_owner) WHERE state = 'CLAIMED';
CREATE INDEX partitions_expiry ON partitions (lease_expires) WHERE state = 'CLAIMED';

CREATE TABLE refusals (
    job_id  text NOT NULL REFERENCES jobs ON DELETE CASCADE,
    node_id text NOT NULL,
    reason  text NOT NULL,
    at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, node_id)
);
