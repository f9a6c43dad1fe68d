BEGIN;
SELECT status FROM leads WHERE id = ':id' FOR UPDATE;
UPDATE leads SET status = 'sold' WHERE id = ':id';
UPDATE facts SET status = 'sold', buyer = 'b1', price_cents = 1500 WHERE lead_id = ':id';
INSERT INTO audit(lead_id, event, ts, actor, status_from, status_to, prev_hash, hash) VALUES (':id', 'lead.delivered', now(), 'routing', 'accepted', 'sold', repeat('0',64), md5(random()::text)||md5(random()::text));
INSERT INTO outbox(id, type, payload) VALUES (gen_random_uuid(), 'match.found', '{"lead_id":"x"}') RETURNING id AS event \gset
INSERT INTO deliveries(id, event_id, endpoint, status, attempt_count, next_attempt_at) VALUES (gen_random_uuid(), ':event', 'e1', 'pending', 0, now()) RETURNING id AS delivery \gset
COMMIT;
UPDATE deliveries SET locked_until = now() + interval '30 seconds' WHERE id = ':delivery' AND status = 'pending';
BEGIN;
INSERT INTO attempts(delivery_id, attempt, status_code, latency_ms) VALUES (':delivery', 1, 200, 3);
UPDATE deliveries SET status = 'succeeded', attempt_count = 1, locked_until = NULL, next_attempt_at = NULL WHERE id = ':delivery';
COMMIT;
