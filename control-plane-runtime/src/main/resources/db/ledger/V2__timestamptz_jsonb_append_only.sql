-- issue 20 §3: a schema a DBA accepts. Applied by Flyway (cp.ledger.LedgerSchema) after V1, never instead of it.
--
-- ledger_entry.body stays the canonical text the chain hashes (cp.ledger.ChainCodec): it is never rewritten.
-- What is added serves queries and guards the rows:

-- 1. The entry's time as a timestamptz (it was the hashed ISO-8601 text; body still holds that text).
ALTER TABLE ledger_entry ALTER COLUMN ts TYPE timestamptz USING ts::timestamptz;
CREATE INDEX ledger_entry_ts ON ledger_entry (stream, ts);

-- 2. The entry's metadata as jsonb, kept by PostgreSQL from body (a stored generated column), for ad-hoc
--    queries and indexes. A NUL escape (\u0000) is the one JSON text jsonb cannot hold: it reads as U+FFFD here
--    (the store no longer writes it; rows written before may hold it).
ALTER TABLE ledger_entry ADD COLUMN metadata jsonb
  GENERATED ALWAYS AS ((replace(body, '\u0000', '\ufffd'))::jsonb -> 'metadata') STORED;

-- 3. With CP_LEDGER_HMAC_KEY, the head row carries an HMAC of (stream, entries, last_hash), so a head
--    row "fixed" after rows were deleted is caught by verify without the key's holder.
ALTER TABLE ledger_stream ADD COLUMN head_mac TEXT;

-- 4. Append-only, enforced by the database: rows of ledger_entry are never updated or deleted, a head row never
--    moves back or goes away, and quarantined rows stay. The one exception is 'cpctl ledger repair', which moves
--    bad rows to ledger_quarantine and moves the head back inside a transaction that says so
--    (SET LOCAL cp.ledger_repair = 'on'). This guards against mistakes and tools; it is not a security boundary
--    (any role that may DELETE may also set the variable, and an owner may drop the triggers): for that, grant the
--    workers' role only SELECT, INSERT on ledger_entry and SELECT, INSERT, UPDATE on ledger_stream (README).
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' AND TG_TABLE_NAME <> 'ledger_quarantine'
      AND coalesce(current_setting('cp.ledger_repair', true), '') = 'on' THEN
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    RETURN NEW;
  END IF;
  IF TG_LEVEL = 'ROW' AND TG_TABLE_NAME = 'ledger_stream' AND TG_OP = 'UPDATE' THEN
    IF NEW.stream = OLD.stream AND NEW.entries >= OLD.entries THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'the ledger is append-only: % on % refused (only ''cpctl ledger repair'' moves rows, to'
      ' ledger_quarantine)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_entry
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entry_no_truncate BEFORE TRUNCATE ON ledger_entry
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_stream_forward_only BEFORE UPDATE OR DELETE ON ledger_stream
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_stream_no_truncate BEFORE TRUNCATE ON ledger_stream
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_quarantine_kept BEFORE UPDATE OR DELETE ON ledger_quarantine
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_quarantine_no_truncate BEFORE TRUNCATE ON ledger_quarantine
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
