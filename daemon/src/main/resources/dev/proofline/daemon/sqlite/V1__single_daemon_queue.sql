-- A single daemon's durable job queue: the cluster's model (db/V1__cluster_queue.sql) in SQLite.
-- Times are milliseconds since the epoch from the daemon's clock (one process uses the file);
-- arrays (public signals, timings) are JSON text. Refusals are not kept: the only node's refusal
-- fails the job.

CREATE TABLE nodes (
    node_id        TEXT PRIMARY KEY,
    grpc_address   TEXT NOT NULL,
    http_address   TEXT NOT NULL,
    backend        TEXT NOT NULL,
    started_at     INTEGER NOT NULL,
    heartbeat_at   INTEGER NOT NULL,
    stopped_at     INTEGER,
    permits_max    INTEGER NOT NULL DEFAULT 0,
    permits_in_use INTEGER NOT NULL DEFAULT 0,
    claimed        INTEGER NOT NULL DEFAULT 0,
    proofs         INTEGER NOT NULL DEFAULT 0,
    prover_busy    REAL NOT NULL DEFAULT 0,
    circuits       TEXT NOT NULL DEFAULT ''
);

-- the sequences: job numbers and lease tokens are never reused, also after old jobs are deleted
CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('job_numbers', 0), ('lease_tokens', 0);

CREATE TABLE jobs (
    job_id          TEXT PRIMARY KEY,
    number          INTEGER NOT NULL,
    idempotency_key TEXT UNIQUE,
    circuit_id      TEXT NOT NULL,
    key_digest      TEXT NOT NULL,
    priority        INTEGER NOT NULL,
    partitions      INTEGER NOT NULL,
    done            INTEGER NOT NULL DEFAULT 0,
    -- RUNNING, DONE, FAILED, CANCELLED, DEADLINE_EXCEEDED
    state           TEXT NOT NULL DEFAULT 'RUNNING',
    error           TEXT,
    submitted_by    TEXT NOT NULL,
    submitted_at    INTEGER NOT NULL,
    deadline_at     INTEGER,
    ended_at        INTEGER,
    fetched_at      INTEGER
);

CREATE INDEX jobs_running_deadline ON jobs (deadline_at) WHERE state = 'RUNNING' AND deadline_at IS NOT NULL;
CREATE INDEX jobs_ended ON jobs (ended_at) WHERE state <> 'RUNNING';
CREATE INDEX jobs_number ON jobs (number);

CREATE TABLE partitions (
    job_id         TEXT NOT NULL REFERENCES jobs ON DELETE CASCADE,
    idx            INTEGER NOT NULL,
    -- the job's number: first submitted, first claimed (within a priority)
    seq            INTEGER NOT NULL,
    circuit_id     TEXT NOT NULL,
    key_digest     TEXT NOT NULL,
    priority       INTEGER NOT NULL,
    -- wtns (snarkjs .wtns bytes) or input_json (UTF-8 circom inputs)
    kind           TEXT NOT NULL,
    payload        BLOB,
    -- QUEUED, CLAIMED, DONE, FAILED, CANCELLED
    state          TEXT NOT NULL DEFAULT 'QUEUED',
    submitted_at   INTEGER NOT NULL,
    deadline_at    INTEGER,
    lease_owner    TEXT,
    lease_token    INTEGER,
    lease_expires  INTEGER,
    claims         INTEGER NOT NULL DEFAULT 0,
    claimed_at     INTEGER,
    proved_by      TEXT,
    proof_json     TEXT,
    proof_binary   BLOB,
    public_signals TEXT,
    -- queue wait, synthesis, prover wait, prover, finalize, total (ms)
    timings        TEXT,
    error          TEXT,
    PRIMARY KEY (job_id, idx)
);

CREATE INDEX partitions_queued ON partitions (priority DESC, seq, idx) WHERE state = 'QUEUED';
CREATE INDEX partitions_leases ON partitions (lease_owner) WHERE state = 'CLAIMED';
