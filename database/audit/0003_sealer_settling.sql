-- Follow-up to 0002, for databases that already applied it.

SET LOCAL ROLE leadgate_audit;

-- A foreign key to entries would stop a TRUNCATE of entries before the
-- append-only trigger could, naming the wrong reason; the row is evidence
-- on its own (its log_index and lead say which entry it was).
ALTER TABLE audit.sealing_lags DROP CONSTRAINT IF EXISTS sealing_lags_entry_id_fkey;

-- When the pending snapshot was taken. A transaction can draw an entry id
-- an instant before it has a transaction id, and so be missing from that
-- snapshot's in-flight list; the sealer also lets the snapshot age a few
-- seconds before it treats the ids below it as final.
ALTER TABLE audit.sealer_runs ADD COLUMN IF NOT EXISTS pending_at timestamptz;
