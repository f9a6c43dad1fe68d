-- Global tamper evidence (docs/audit.md): the sealer's Merkle tree over every
-- entry, its signed checkpoints, and the entries that reached it late.
-- Applied like 0001 over the administrative connection; owned by
-- leadgate_audit; append-only like the rest of the schema.

SET LOCAL ROLE leadgate_audit;

-- Signed tree heads. `note` is the complete C2SP tlog-checkpoint signed note
-- exactly as signed, so it can be handed out and checked byte for byte.
CREATE TABLE IF NOT EXISTS audit.checkpoints (
  size bigint PRIMARY KEY CHECK (size >= 0),
  root char(64) NOT NULL,
  origin text NOT NULL,
  key_id text NOT NULL,
  signature text NOT NULL,
  note text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every complete subtree above the leaves: node `index` at `level` is the
-- RFC 9162 hash of leaves [index * 2^level, (index + 1) * 2^level). Written
-- once, when the subtree fills, so a proof reads O(log n) rows and the
-- sealer restarts from the O(log n) right-edge nodes. Leaves (level 0) are
-- not stored: they follow from the entry hashes.
CREATE TABLE IF NOT EXISTS audit.merkle_nodes (
  level smallint NOT NULL CHECK (level >= 1 AND level < 63),
  index bigint NOT NULL CHECK (index >= 0),
  hash bytea NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (level, index)
);

-- One row per sealing run that changed something. `scan_from`: every entry
-- with a smaller or equal id is sealed or will never exist. `pending_*`: the
-- newest id and the snapshot of an earlier run; once every transaction in
-- flight at that snapshot has ended, ids up to `pending_max_id` are final.
CREATE TABLE IF NOT EXISTS audit.sealer_runs (
  id bigserial PRIMARY KEY,
  size_before bigint NOT NULL,
  size_after bigint NOT NULL,
  scan_from bigint NOT NULL,
  pending_max_id bigint NOT NULL,
  pending_snapshot text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Entries whose own timestamp was further behind their sealing than the
-- configured bound: back-dated writes, or a sealer that stalled.
CREATE TABLE IF NOT EXISTS audit.sealing_lags (
  entry_id bigint PRIMARY KEY REFERENCES audit.entries (id),
  log_index bigint NOT NULL,
  lead_id uuid NOT NULL,
  publisher_id uuid NOT NULL,
  ts timestamptz NOT NULL,
  sealed_at timestamptz NOT NULL,
  lag_ms bigint NOT NULL,
  bound_ms bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS sealing_lags_publisher_id_idx ON audit.sealing_lags (publisher_id, entry_id);

DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['checkpoints', 'merkle_nodes', 'sealer_runs', 'sealing_lags'] LOOP
    EXECUTE format(
      'CREATE OR REPLACE TRIGGER %I BEFORE UPDATE OR DELETE ON audit.%I FOR EACH ROW EXECUTE FUNCTION audit.refuse_change()',
      name || '_no_change', name);
    EXECUTE format(
      'CREATE OR REPLACE TRIGGER %I BEFORE TRUNCATE ON audit.%I FOR EACH STATEMENT EXECUTE FUNCTION audit.refuse_change()',
      name || '_no_truncate', name);
  END LOOP;
END
$$;

GRANT SELECT, INSERT ON audit.checkpoints, audit.merkle_nodes, audit.sealer_runs, audit.sealing_lags TO :app_role;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA audit TO :app_role;
