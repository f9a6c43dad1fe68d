import { uuidv7 } from 'uuidv7'
import type Destination from '#models/destination'
import ApiProblem from '#exceptions/api_problem'
import type { SaleOffer } from '#services/routing/routing_service'
import { type BuyerLead, SAMPLE_LEAD } from '#services/selling/buyer_lead'
import { postToDestination } from '#services/selling/destination_post'
import { opened } from '#services/selling/destination_store'

/** A test lead's parts as the body gives them (`POST .../test {lead}`). */
export type TestLead = {
  contact?: Partial<BuyerLead['contact']>
  provenance?: Partial<Omit<BuyerLead['provenance'], 'label'>>
  consent?: { given?: boolean; text?: string; timestamp?: Date; ip?: string }
  attributes?: Record<string, string | number | boolean>
}

/**
 * The buyer's "test posting" button: the sample lead (or its parts replaced by the caller's)
 * sent for real, as a sale would send it, and what came back and how the response rules read
 * it. Nothing is recorded as a sale; secrets are masked in the request shown.
 */
export async function testDestination(destination: Destination, override: TestLead = {}) {
  if (destination.kind === 'webhook') {
    throw ApiProblem.unprocessable([
      {
        field: 'kind',
        code: 'destination_not_testable',
        message:
          'A webhook destination sells through the buyer’s webhook endpoints: test those with a ping from the endpoint.',
      },
    ])
  }
  const lead: BuyerLead = {
    ...SAMPLE_LEAD,
    lead_id: uuidv7(),
    buyer_id: destination.buyerId,
    contact: { ...SAMPLE_LEAD.contact, ...override.contact },
    provenance: { ...SAMPLE_LEAD.provenance, ...override.provenance },
    consent: {
      ...SAMPLE_LEAD.consent,
      ...override.consent,
      timestamp: override.consent?.timestamp?.toISOString() ?? SAMPLE_LEAD.consent.timestamp,
    },
    attributes: override.attributes ?? SAMPLE_LEAD.attributes,
    matched_at: new Date().toISOString(),
  }
  const offer: SaleOffer = {
    attemptId: uuidv7(),
    leadId: lead.lead_id,
    publisherId: '',
    labelId: null,
    environment: 'sandbox',
    ruleId: '',
    buyerId: destination.buyerId,
    destinationId: destination.id,
    destinationKind: destination.kind,
    priceCents: lead.price_cents ?? 0,
    payoutCents: 0,
    currency: lead.currency ?? 'EUR',
    windowHours: 0,
    exclusive: true,
    timeoutMs: 0,
    at: new Date(),
    lead,
  }
  const answer = await postToDestination(opened(destination), offer)
  return {
    request: answer.request,
    response:
      answer.httpStatus !== null
        ? { status: answer.httpStatus, body: answer.responseExcerpt }
        : null,
    outcome: answer.outcome,
    reason: answer.reason,
    buyer_lead_id: answer.buyerLeadId,
    price_cents: answer.priceCents,
    duration_ms: answer.durationMs,
  }
}

/** What the test button brings back: the request as sent, the answer, how the rules read it. */
export type DestinationTestResult = Awaited<ReturnType<typeof testDestination>>
