import { DISPUTE_OUTCOMES, PAYOUT_SCHEDULES } from '#services/money/settlement_policy_service'
import { arrayOf, operation, param, record, ref, strictObject, type Section } from './helpers.js'

/** Money: settlement, a label's settlement rules, disputes and payouts (docs/money.md). */
const signedCents = { type: 'integer', description: 'Integer cents; negative carries forward.' }
const currencyFigures = {
  currency: ref('Currency'),
  pending_cents: {
    type: 'integer',
    description: "Earned on sales still inside their buyer's return window.",
  },
  payable_cents: {
    ...signedCents,
    description: 'Final and not yet paid, net of clawbacks (negative: a clawback carried forward).',
  },
  paid_cents: { type: 'integer', description: 'Paid out so far.' },
}

const policyProperties = {
  payout_schedule: { type: 'string', enum: [...PAYOUT_SCHEDULES], default: 'monthly' },
  minimum_payout_cents: {
    ...ref('Cents'),
    description: 'Below it a payout waits for the next run.',
  },
  response_hours: {
    type: 'integer',
    minimum: 1,
    maximum: 2160,
    default: 72,
    description: 'Hours the publisher has to answer a dispute; unanswered, it is upheld.',
  },
  decision_hours: {
    type: 'integer',
    minimum: 1,
    maximum: 2160,
    default: 120,
    description: 'Hours the operator has to decide a dispute the rules could not.',
  },
  default_outcome: {
    type: 'string',
    enum: [...DISPUTE_OUTCOMES],
    default: 'upheld',
    description: 'What an undecided dispute comes to when the operator’s deadline passes.',
  },
}

const schemas = {
  SettlementFigures: record(currencyFigures),
  Settlement: record({
    publisher_id: ref('Id'),
    ...currencyFigures,
    currencies: arrayOf(ref('SettlementFigures'), {
      description: 'Every currency the publisher earns in; the top-level figures are the first.',
    }),
    accepted_leads: { type: 'integer', description: 'Sold leads not returned.' },
    returned_leads: { type: 'integer' },
    open_disputes: { type: 'integer' },
    next_payout: record({
      date: { type: 'string', format: 'date' },
      schedule: { type: 'string', enum: [...PAYOUT_SCHEDULES] },
      minimum_payout_cents: ref('Cents'),
    }),
  }),
  SettlementPolicy: strictObject(policyProperties, Object.keys(policyProperties)),
}

export const money: Section = {
  tags: [
    {
      name: 'Money',
      description:
        'Every sale is booked in an append-only, double-entry ledger: pending during the buyer’s return window, payable once final, paid by payout runs; disputes return a lead with the money following automatically.',
    },
  ],
  schemas,
  paths: {
    '/v1/settlement': {
      get: operation('/v1/settlement', {
        id: 'getSettlement',
        tag: 'Money',
        summary: 'A publisher’s settlement',
        description:
          'Pending, payable and paid amounts from the ledger, accepted and returned volume, open disputes and the next payout. A publisher gets its own; the operator names `publisher_id`.',
        scope: 'read',
        parameters: [
          {
            name: 'publisher_id',
            in: 'query',
            description: 'Operator: whose settlement.',
            schema: ref('Id'),
          },
        ],
        success: { status: 200, description: 'The settlement.', schema: ref('Settlement') },
      }),
    },
    '/v1/labels/{id}/settlement-policy': {
      parameters: [param('Id')],
      get: operation('/v1/labels/{id}/settlement-policy', {
        id: 'getSettlementPolicy',
        tag: 'Money',
        summary: 'A label’s settlement rules',
        scope: 'read',
        success: { status: 200, description: 'The rules.', schema: ref('SettlementPolicy') },
      }),
      put: operation('/v1/labels/{id}/settlement-policy', {
        id: 'replaceSettlementPolicy',
        tag: 'Money',
        summary: 'Replace a label’s settlement rules',
        scope: 'submit',
        body: {
          schema: ref('SettlementPolicy'),
          example: {
            payout_schedule: 'weekly',
            minimum_payout_cents: 5000,
            response_hours: 72,
            decision_hours: 120,
            default_outcome: 'upheld',
          },
        },
        success: { status: 200, description: 'The rules.', schema: ref('SettlementPolicy') },
      }),
    },
  },
}
