ALTER TABLE facts ADD COLUMN buyer text, ADD COLUMN price_cents int;
CREATE TABLE deliveries(id uuid PRIMARY KEY, event_id uuid, endpoint text, status text, attempt_count int, next_attempt_at timestamptz, locked_until timestamptz, UNIQUE (event_id, endpoint));
CREATE INDEX ON deliveries(next_attempt_at) WHERE status = 'pending';
CREATE TABLE attempts(id bigserial PRIMARY KEY, delivery_id uuid, attempt int, status_code int, latency_ms int, UNIQUE (delivery_id, attempt));
