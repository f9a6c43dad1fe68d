import type { ActiveRule } from '#services/routing/rule_book'

type StoredLead = {
  id: string
  contact: Record<string, any>
  provenance: Record<string, any>
  consent: Record<string, any>
  attributes: Record<string, string | number | boolean> | null
}

/**
 * The spec's rich `match.found` body (schema `MatchFoundData` in
 * app/services/webhooks/event_schemas.ts): what the buyer needs to act on the lead
 * and to prove consent, consent fields always separate. It names the label,
 * never the publisher, and carries the buyer's price, never the payout.
 */
export function matchFoundData(
  lead: StoredLead,
  rule: ActiveRule,
  label: string | null,
  matchedAt: Date
) {
  return {
    lead_id: lead.id,
    status: 'matched' as const,
    buyer_id: rule.buyerId,
    contact: {
      name: lead.contact.name ?? null,
      email: lead.contact.email ?? null,
      phone: lead.contact.phone ?? null,
      postal_code: lead.contact.postal_code ?? null,
      country: lead.contact.country ?? null,
    },
    provenance: {
      source: lead.provenance.source ?? null,
      campaign: lead.provenance.campaign ?? null,
      label,
      landing_page: lead.provenance.landing_page ?? null,
    },
    consent: {
      given: lead.consent.given ?? false,
      text: lead.consent.text ?? null,
      timestamp: lead.consent.timestamp ?? null,
      ip: lead.consent.ip ?? null,
    },
    attributes: lead.attributes ?? {},
    price_cents: rule.priceCents,
    currency: rule.currency,
    matched_at: matchedAt.toISOString(),
  }
}
