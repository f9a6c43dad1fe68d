import type { MatchFoundData } from '#services/webhooks/event_schemas'

/**
 * What a buyer's template sees: the `match.found` body (what a webhook buyer
 * gets), plus `bid_id` when the post follows the buyer's winning bid.
 */
export type BuyerLead = MatchFoundData & { bid_id?: string | null }

/**
 * What a ping's template sees: the partial lead of the auction (DESIGN §14),
 * never a name, e-mail or phone; the type keeps them out.
 */
export type PingLead = Partial<Omit<BuyerLead, 'contact' | 'bid_id'>> & {
  contact?: Pick<MatchFoundData['contact'], 'postal_code' | 'country'>
}

/** The lead a template is tried on when it is saved, and a test post's default. */
export const SAMPLE_LEAD: BuyerLead = {
  lead_id: '0190f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f',
  buyer_id: '0190f3c4-0000-7000-8000-000000000001',
  status: 'matched',
  contact: {
    name: 'Jane Q. Example',
    email: 'jane@example.com',
    phone: '+447700900123',
    postal_code: 'SW1A 1AA',
    country: 'GB',
  },
  provenance: {
    source: 'sample-source',
    campaign: 'sample-campaign',
    label: 'sample-label',
    landing_page: 'https://example.com/solar',
  },
  consent: {
    given: true,
    text: 'I agree to be contacted about solar panels.',
    timestamp: '2026-11-02T10:20:30.000Z',
    ip: '203.0.113.7',
  },
  attributes: { product: 'solar', age: 42, homeowner: true },
  routing_rule_id: '0190f3c4-0000-7000-8000-000000000002',
  price_cents: 2500,
  currency: 'GBP',
  matched_at: '2026-11-02T10:20:31.000Z',
  bid_id: 'sample-bid-1',
}

export const SAMPLE_PING_LEAD: PingLead = {
  lead_id: SAMPLE_LEAD.lead_id,
  contact: { postal_code: 'SW1A', country: 'GB' },
  provenance: SAMPLE_LEAD.provenance,
  attributes: SAMPLE_LEAD.attributes,
  currency: 'GBP',
}

/** Characters that break a document that does not escape them: quotes, markup, `&`, newlines, `%`. */
const HOSTILE = `"'</x>&amp;%26\\\n\r\t{{}}; ü💡`

/**
 * The sample with every string made hostile (numbers, booleans and dates as
 * they are): a template whose document survives it keeps a lead's values
 * from breaking out of their places.
 */
export function hostileCopy<T>(lead: T): T {
  const walk = (value: unknown, key: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, key))
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, walk(item, name)])
      )
    }
    // Dates and the phone stay parseable: their filters are tried on the plain sample.
    if (typeof value !== 'string' || /(_at|timestamp|phone|country)$/.test(key)) return value
    return `${value}${HOSTILE}`
  }
  return walk(lead, '') as T
}
