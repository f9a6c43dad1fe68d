import type { AuditEntry } from '#services/audit/audit_chain_service'

/** One event of a lead's trail, as GET /v1/audit-logs?lead_id= lists it. */
export function trailEventToJson(entry: AuditEntry) {
  return {
    event: entry.event,
    ts: entry.ts,
    actor: entry.actor,
    lead_seq: entry.lead_seq,
    status_from: entry.status_from,
    status_to: entry.status_to,
    prev_hash: entry.prev_hash,
    hash: entry.hash,
  }
}

type Evidence = {
  method: string
  text: string | null
  text_version: number
  text_digest: string
  page_url: string | null
  consented_at: Date | string
  ip_commitment: string | null
  email_commitment: string | null
  phone_commitment: string | null
}

/** A lead's consent evidence: the wording and how it was given, with commitments in place of the IP, e-mail and phone. */
export function consentEvidenceToJson(evidence: Evidence) {
  return {
    method: evidence.method,
    text: evidence.text,
    text_version: evidence.text_version,
    text_digest: evidence.text_digest,
    page_url: evidence.page_url,
    consented_at: new Date(evidence.consented_at).toISOString(),
    ip_commitment: evidence.ip_commitment,
    email_commitment: evidence.email_commitment,
    phone_commitment: evidence.phone_commitment,
  }
}
