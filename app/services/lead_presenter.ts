export type LeadRow = {
  id: string
  publisher_id: string
  environment: string
  channel: string
  status: string
  contact: Record<string, unknown>
  provenance: Record<string, unknown>
  consent: Record<string, unknown>
  attributes: Record<string, unknown>
  quality_check: Record<string, unknown>
  reasons: unknown[]
  created_at: Date
}

export type LeadContext = { publisherSlug: string; labelSlug: string | null }

const LOOKUP_STATUS: Record<string, string> = {
  received: 'received',
  accepted: 'accepted',
  flagged: 'flagged',
  rejected: 'rejected',
  matched: 'matched',
  delivered: 'matched',
  paid_out: 'paid_out',
}

/** The lead as API.md shows it; provenance carries the label assigned from the publisher. */
export function leadToJson(row: LeadRow, context: LeadContext) {
  return {
    id: row.id,
    publisher: context.publisherSlug,
    status: row.status,
    environment: row.environment,
    channel: row.channel,
    contact: row.contact,
    provenance: { ...row.provenance, label: context.labelSlug },
    consent: row.consent,
    attributes: row.attributes,
    quality_check: row.quality_check,
    reasons: row.reasons,
    created_at: new Date(row.created_at).toISOString(),
  }
}

/** GET /v1/requests/{id}: the lookup view's statuses (received, accepted, matched, paid_out; rejected and flagged). */
export function lookupStatus(status: string) {
  return LOOKUP_STATUS[status] ?? 'received'
}
