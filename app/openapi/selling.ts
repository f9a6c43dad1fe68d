import { MAX_SHARED_SALES, SALE_DEFAULTS } from '#services/routing/sale_settings'
import { arrayOf, nullable, operation, param, record, ref, type Section } from './helpers.js'

/** Selling (docs/selling.md): the sale of a lead, and where each buyer takes its leads. */
const saleStatus = {
  type: 'string',
  enum: ['pending', 'sold', 'unsold'],
  description:
    '`pending`: the sale is not decided yet (or the lead waits for review); `sold`: at least one buyer took it; `unsold`: nobody did (an accepted lead is offered again when rules, caps or schedules change).',
}

const schemas = {
  SaleAnswer: {
    type: 'object',
    description:
      'The sale as the publisher hears it: whether the lead sold and, when it did, the publisher’s own payout. Never the buyer or the price.',
    properties: {
      status: saleStatus,
      payout_cents: { ...ref('Cents'), description: 'The publisher’s payout, once sold.' },
    },
    required: ['status'],
  },
  SaleSettings: record({
    max_sales: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SHARED_SALES,
      default: SALE_DEFAULTS.maxSales,
      description:
        'How many buyers may share a lead: the sale takes the best exclusive sale or the best set of shared ones to distinct buyers, whichever earns more.',
    },
    deadline_seconds: {
      type: 'integer',
      default: SALE_DEFAULTS.deadlineSeconds,
      description: 'How long a lead may fall through from buyer to buyer before it is left unsold.',
    },
    tmax_ms: {
      type: 'integer',
      default: SALE_DEFAULTS.tmaxMs,
      description: 'How long an auction waits for bids (ping-post).',
    },
    auction: {
      type: 'string',
      enum: ['first_price', 'second_price'],
      default: SALE_DEFAULTS.auction,
      description: 'What the winner of an auction pays: its bid, or the second bid plus one cent.',
    },
  }),
  SaleRecord: {
    type: 'object',
    properties: {
      buyer_id: ref('Id'),
      destination_id: nullable(ref('Id')),
      price_cents: ref('Cents'),
      payout_cents: { ...ref('Cents'), description: 'Operator only.' },
      routing_rule_id: { ...nullable(ref('Id')), description: 'Operator only.' },
      currency: ref('Currency'),
      exclusive: { type: 'boolean' },
      buyer_lead_id: {
        ...nullable({ type: 'string' }),
        description: 'The buyer’s own id for the lead, when its system answered one.',
      },
      sold_at: ref('Timestamp'),
    },
    required: ['buyer_id', 'price_cents', 'currency', 'exclusive', 'sold_at'],
  },
  SaleAttempt: record({
    id: ref('Id'),
    buyer_id: ref('Id'),
    destination_id: nullable(ref('Id')),
    destination_kind: { type: 'string', enum: ['webhook', 'http', 'email', 'crm'] },
    kind: { type: 'string', enum: ['ping', 'post'] },
    outcome: {
      type: 'string',
      enum: ['pending', 'accepted', 'rejected', 'duplicate', 'timeout', 'error', 'bid', 'no_bid'],
      description: '`pending` while the post is in flight.',
    },
    reason: {
      ...nullable({ type: 'string' }),
      description:
        'The buyer’s reason, or a code: `http_503`, `timeout`, `redirect`, `interrupted`…',
    },
    bid_cents: nullable(ref('Cents')),
    http_status: nullable({ type: 'integer' }),
    buyer_lead_id: nullable({ type: 'string' }),
    response_excerpt: {
      ...nullable({ type: 'string' }),
      description: 'The first 20 KB of what the buyer’s system answered.',
    },
    duration_ms: nullable({ type: 'integer' }),
    at: ref('Timestamp'),
  }),
  Sale: {
    type: 'object',
    description:
      'The operator reads the whole sale; a buyer its own sale and attempts; the publisher `status` and `payout_cents` only.',
    properties: {
      status: saleStatus,
      payout_cents: nullable(ref('Cents')),
      sales: arrayOf(ref('SaleRecord')),
      attempts: arrayOf(ref('SaleAttempt')),
    },
    required: ['status'],
  },
}

export const selling: Section = {
  tags: [
    {
      name: 'Selling',
      description:
        'How each buyer takes leads (destinations) and how a lead was sold: every offer to a buyer, its answer and the sales it made.',
    },
  ],
  schemas,
  paths: {
    '/v1/leads/{id}/sale': {
      parameters: [param('Id')],
      get: operation('/v1/leads/{id}/sale', {
        id: 'getLeadSale',
        tag: 'Selling',
        summary: 'How a lead was sold',
        description:
          'Every offer of the lead to a buyer (kind, outcome, the buyer’s reason, timing) and the sales it made. The operator sees all of it; a buyer only its own part; the publisher whether it sold and its own payout.',
        scope: 'read',
        success: { status: 200, description: 'The sale.', schema: ref('Sale') },
      }),
    },
  },
}
