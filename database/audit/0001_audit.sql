-- The evidence tier (docs/audit.md). Applied by the administrative connection,
-- never by the application. Everything here is owned by leadgate_audit, a
-- role nobody logs in as, so the application role (:app_role, substituted by
-- DatabaseSetupService) can neither alter nor drop it, nor disable a trigger.
-- Idempotent: safe to run again on a database that already has it.

DO $$
BEGIN
  CREATE ROLE leadgate_audit NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
EXCEPTION
  -- Roles are cluster-wide: another database (or a parallel run) may have made it.
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;

CREATE SCHEMA IF NOT EXISTS audit AUTHORIZATION leadgate_audit;

-- From here on every object is created by, and so owned by, leadgate_audit.
SET LOCAL ROLE leadgate_audit;

CREATE TABLE IF NOT EXISTS audit.schema_versions (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
);

-- One row per step in a lead's life. No free text and no personal data:
-- ids, typed actor strings, statuses and hashes.
CREATE TABLE IF NOT EXISTS audit.entries (
  id bigserial PRIMARY KEY,
  publisher_id uuid NOT NULL,
  lead_id uuid NOT NULL,
  lead_seq integer NOT NULL CHECK (lead_seq >= 1),
  event text NOT NULL,
  ts timestamptz NOT NULL,
  actor text NOT NULL,
  status_from text NULL,
  status_to text NOT NULL,
  prev_hash char(64) NOT NULL,
  hash char(64) NOT NULL,
  environment text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Two writers can never both extend a lead's chain from the same point.
  CONSTRAINT entries_lead_seq_unique UNIQUE (lead_id, lead_seq)
);
CREATE INDEX IF NOT EXISTS entries_publisher_id_idx ON audit.entries (publisher_id, id);

-- The lock point of each chain: appending locks this row FOR UPDATE, so
-- appends to one lead queue up while different leads append in parallel.
-- It holds no evidence (the entries are the evidence and verification
-- recomputes everything from them), which is why it is the one audit table
-- the application may UPDATE.
CREATE TABLE IF NOT EXISTS audit.chain_heads (
  lead_id uuid PRIMARY KEY,
  publisher_id uuid NOT NULL,
  last_seq integer NOT NULL,
  last_hash char(64) NOT NULL
);

-- The exact consent wordings, each stored once. A wording is not personal data.
CREATE TABLE IF NOT EXISTS audit.consent_texts (
  id bigserial PRIMARY KEY,
  digest char(64) NOT NULL UNIQUE,
  version integer NOT NULL UNIQUE,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- What proves a lead's consent once its personal data is gone: the wording
-- it agreed to, how and where, when, and HMAC commitments of the IP, e-mail
-- and phone under a per-lead salt kept in the publisher's schema.
CREATE TABLE IF NOT EXISTS audit.consent_evidence (
  lead_id uuid PRIMARY KEY,
  publisher_id uuid NOT NULL,
  text_digest char(64) NOT NULL REFERENCES audit.consent_texts (digest),
  text_version integer NOT NULL,
  method text NOT NULL CHECK (method IN ('checkbox', 'form_submit', 'api', 'upload')),
  page_url text NULL,
  consented_at timestamptz NOT NULL,
  ip_commitment char(64) NULL,
  email_commitment char(64) NULL,
  phone_commitment char(64) NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS consent_evidence_publisher_id_idx ON audit.consent_evidence (publisher_id, lead_id);

-- The sealer's global order: entries get a log_index by insertion here, so
-- an entry itself is never updated.
CREATE TABLE IF NOT EXISTS audit.log_positions (
  log_index bigint PRIMARY KEY CHECK (log_index >= 0),
  entry_id bigint NOT NULL UNIQUE REFERENCES audit.entries (id)
);

CREATE OR REPLACE FUNCTION audit.refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit.% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
REVOKE ALL ON FUNCTION audit.refuse_change() FROM PUBLIC;

DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['schema_versions', 'entries', 'consent_texts', 'consent_evidence', 'log_positions'] LOOP
    EXECUTE format(
      'CREATE OR REPLACE TRIGGER %I BEFORE UPDATE OR DELETE ON audit.%I FOR EACH ROW EXECUTE FUNCTION audit.refuse_change()',
      name || '_no_change', name);
    EXECUTE format(
      'CREATE OR REPLACE TRIGGER %I BEFORE TRUNCATE ON audit.%I FOR EACH STATEMENT EXECUTE FUNCTION audit.refuse_change()',
      name || '_no_truncate', name);
  END LOOP;
END
$$;

-- The application: read and append, nothing else.
REVOKE ALL ON SCHEMA audit FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA audit FROM :app_role;
GRANT USAGE ON SCHEMA audit TO :app_role;
GRANT SELECT, INSERT ON audit.entries, audit.consent_texts, audit.consent_evidence, audit.log_positions TO :app_role;
GRANT SELECT, INSERT, UPDATE ON audit.chain_heads TO :app_role;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA audit TO :app_role;
