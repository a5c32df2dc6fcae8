-- issue 13: the PostgreSQL ledger store (CP_LEDGER_URL). Applied by Flyway (cp.ledger.PostgresStore).
--
-- One hash chain per stream (a tier, and for HO2 an agent class): ledger_entry.body is the entry's
-- JSON line exactly as the JSONL store writes it (without the newline), so its hash is computed and
-- checked by the same code (cp.ledger.ChainCodec) and an exported stream is a valid JSONL ledger.
-- The other columns are copies of body fields for the indexes; verify checks they agree with body.

-- The head record of each stream: how many entries it holds and the hash of the last one. An append
-- locks this row (SELECT ... FOR UPDATE), so appends to one stream from many hosts form one chain
-- while appends to different streams do not wait on each other; verify compares it with the rows,
-- which catches a deleted tail.
CREATE TABLE ledger_stream (
  stream       TEXT PRIMARY KEY,                 -- 'hot', 'ho3', 'ho1', 'ho2/ADMIN'
  tier         TEXT NOT NULL,                    -- 'hot', 'ho3', 'ho2', 'ho1'
  agent_class  TEXT,                             -- HO2 only
  entries      BIGINT NOT NULL DEFAULT 0,
  last_hash    TEXT NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ledger_entry (
  stream           TEXT NOT NULL REFERENCES ledger_stream (stream),
  seq              BIGINT NOT NULL,              -- 1-based position in the stream's chain (the JSONL line number)
  entry_id         TEXT NOT NULL,
  ts               TEXT NOT NULL,                -- the entry's timestamp, as hashed (ISO-8601 UTC)
  event_type       TEXT NOT NULL,
  session_id       TEXT,                         -- metadata.session_id
  work_order_id    TEXT,                         -- metadata.wo_id or metadata.work_order_id
  idempotency_key  TEXT,
  prev_hash        TEXT NOT NULL,
  hash             TEXT NOT NULL,
  body             TEXT NOT NULL,                -- the JSON line (cast to jsonb for ad-hoc SQL)
  PRIMARY KEY (stream, seq),
  CONSTRAINT ledger_entry_id_unique UNIQUE (stream, entry_id),
  -- a retried write (same key) writes nothing: enforced by the database, across hosts
  CONSTRAINT ledger_entry_idempotency_unique UNIQUE (stream, idempotency_key)
);

CREATE INDEX ledger_entry_event ON ledger_entry (stream, event_type, seq);
CREATE INDEX ledger_entry_session ON ledger_entry (stream, session_id, seq) WHERE session_id IS NOT NULL;
CREATE INDEX ledger_entry_work_order ON ledger_entry (stream, work_order_id, seq) WHERE work_order_id IS NOT NULL;

-- Rows moved aside by 'cpctl ledger repair' (nothing is deleted): the JSONL store's .quarantine-* file.
CREATE TABLE ledger_quarantine (
  repair_id      BIGINT NOT NULL,
  stream         TEXT NOT NULL,
  seq            BIGINT NOT NULL,
  body           TEXT NOT NULL,
  quarantined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (repair_id, stream, seq)
);
CREATE SEQUENCE ledger_repair_id;
