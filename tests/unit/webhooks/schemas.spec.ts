import { test } from '@japa/runner'
import { assertValidEvent, InvalidEventPayload } from '#services/webhooks/event_registry'
import {
  EVENT_DATA_SCHEMAS,
  EVENT_DATA_SCHEMA_OF,
  EVENT_TYPES,
  SUBSCRIBABLE_EVENT_TYPES,
  envelopeSchema,
} from '#services/webhooks/event_schemas'
import { RECEIVES_SQL, mayReceive, subscribableBy } from '#services/webhooks/subscription'

const LEAD = '01936b2e-8f30-7000-8000-000000000001'
const BUYER = '01936b2e-8f30-7000-8000-000000000002'
const envelope = (type: string, data: Record<string, unknown>) => ({
  event_id: '01936b2e-8f3a-7c41-9d2e-5b8f0a1c3d4e',
  type,
  created: '2026-11-22T09:00:00.000Z',
  data,
})
const consent = {
  given: true,
  text: 'I agree.',
  timestamp: '2026-11-22T08:59:00.000Z',
  ip: '203.0.113.9',
}

test.group('Webhooks / event schemas', () => {
  test('every event type has a data schema, and the registry checks every type', ({ assert }) => {
    assert.sameMembers(Object.keys(EVENT_DATA_SCHEMA_OF), [...EVENT_TYPES])
    for (const type of EVENT_TYPES) {
      assert.property(EVENT_DATA_SCHEMAS, EVENT_DATA_SCHEMA_OF[type])
      assert.equal((envelopeSchema(type) as any).properties.type.const, type)
    }
  })

  test('accepts the payloads Leadgate publishes', ({ assert }) => {
    const payloads = [
      envelope('lead.received', {
        lead_id: LEAD,
        publisher: 'acme',
        status: 'accepted',
        provenance: { source: 'fb', campaign: null, landing_page: null, label: null },
        consent: { given: true, timestamp: consent.timestamp },
      }),
      envelope('consent.recorded', {
        lead_id: LEAD,
        provenance: { source: 'fb', campaign: 'c', label: 'l' },
        consent,
      }),
      envelope('consent.recorded', {
        lead_id: LEAD,
        provenance: { source: null, campaign: null, label: null },
        consent: { given: false, text: null, timestamp: null, ip: null },
      }),
      envelope('match.found', {
        lead_id: LEAD,
        buyer_id: BUYER,
        status: 'matched',
        contact: { name: 'Jan', email: 'jan@example.nl', phone: '+31612345678' },
        provenance: { source: 'fb', campaign: 'c', label: 'l' },
        consent,
        price_cents: 2500,
        currency: 'EUR',
      }),
      envelope('payout.processed', {
        kind: 'publisher_payout',
        payout_id: LEAD,
        publisher_id: BUYER,
        amount_cents: 1500,
        currency: 'EUR',
        lead_count: 3,
        period_start: '2026-11-01',
        period_end: '2026-11-30',
        reference: 'SEPA-2026-11',
        processed_at: consent.timestamp,
      }),
      envelope('payout.processed', {
        kind: 'buyer_acceptance',
        lead_id: LEAD,
        buyer_id: BUYER,
        amount_cents: 2500,
        currency: 'EUR',
        provenance: { source: 'fb', campaign: 'c', label: 'l' },
        consent: { given: true, timestamp: consent.timestamp },
        accepted_at: consent.timestamp,
      }),
      envelope('dispute.opened', {
        dispute_id: LEAD,
        lead_id: LEAD,
        status: 'open',
        reason: 'unreachable',
        occurred_at: consent.timestamp,
      }),
      envelope('endpoint.failing', {
        endpoint_id: LEAD,
        url: 'https://x.example',
        status: 'enabled',
        reason: 'no_success',
        failing_since: consent.timestamp,
        last_success_at: null,
        disable_at: consent.timestamp,
      }),
      envelope('webhook.ping', { endpoint_id: LEAD, reason: 'probe' }),
    ]
    for (const payload of payloads)
      assert.doesNotThrow(() => assertValidEvent(payload), payload.type)
  })

  test('refuses what breaks the contract: missing fields, unknown fields, consent squashed into one field, unknown types', ({
    assert,
  }) => {
    const bad = [
      envelope('lead.received', { lead_id: LEAD }),
      envelope('consent.recorded', {
        lead_id: LEAD,
        provenance: { source: null, campaign: null, label: null },
        consent: 'given at 09:00',
      }),
      envelope('match.found', {
        lead_id: LEAD,
        buyer_id: BUYER,
        status: 'matched',
        contact: {},
        provenance: { source: null, campaign: null, label: null },
        consent,
      }),
      { ...envelope('webhook.ping', { endpoint_id: LEAD, reason: 'probe' }), extra: true },
      { ...envelope('webhook.ping', { endpoint_id: LEAD, reason: 'probe' }), created: 'yesterday' },
      envelope('lead.deleted', {}),
    ]
    for (const payload of bad) assert.throws(() => assertValidEvent(payload), InvalidEventPayload)
  })

  test('owners subscribe to what the visibility table lets them see', ({ assert }) => {
    assert.sameMembers(subscribableBy('operator'), [...SUBSCRIBABLE_EVENT_TYPES])
    assert.notInclude(subscribableBy('publisher'), 'match.found')
    assert.include(subscribableBy('publisher'), 'payout.processed')
    assert.notInclude(subscribableBy('publisher'), 'buyer.funds_low')
    assert.sameMembers(subscribableBy('buyer'), [
      'match.found',
      'payout.processed',
      'dispute.opened',
      'dispute.responded',
      'dispute.decided',
      'consent.revoked',
      'buyer.funds_low',
      'endpoint.failing',
      'endpoint.disabled',
      'endpoint.recovered',
    ])

    const publisher = {
      ownerType: 'publisher' as const,
      publisherId: 'p1',
      buyerId: null,
      environment: 'live' as const,
    }
    const buyer = {
      ownerType: 'buyer' as const,
      publisherId: null,
      buyerId: 'b1',
      environment: 'live' as const,
    }
    const match = {
      type: 'match.found',
      publisherId: 'p1',
      buyerId: 'b1',
      environment: 'live' as const,
    }
    assert.isFalse(mayReceive(publisher, match))
    assert.isTrue(mayReceive(buyer, match))
    assert.isFalse(mayReceive(buyer, { ...match, buyerId: 'b2' }))
    // A buyer's copy of an acceptance is its own; the publisher's payout is not the buyer's to hear.
    const acceptance = {
      type: 'payout.processed',
      publisherId: null,
      buyerId: 'b1',
      environment: 'live' as const,
    }
    assert.isTrue(mayReceive(buyer, acceptance))
    assert.isFalse(mayReceive(publisher, acceptance))
    assert.isFalse(mayReceive(buyer, { ...acceptance, publisherId: 'p1', buyerId: null }))
    assert.isFalse(mayReceive(buyer, { ...match, environment: 'sandbox' }))
    assert.isTrue(
      mayReceive(publisher, {
        type: 'lead.received',
        publisherId: 'p1',
        buyerId: null,
        environment: 'live',
      })
    )
    assert.isFalse(
      mayReceive(publisher, {
        type: 'lead.received',
        publisherId: 'p2',
        buyerId: null,
        environment: 'live',
      })
    )
    // The SQL form used by recovery names the same rules.
    assert.include(RECEIVES_SQL, "ev.type <> 'match.found'")
    assert.include(RECEIVES_SQL, 'ev.environment = e.environment')
  })
})
