import { DISPUTE_OUTCOMES, PAYOUT_SCHEDULES } from '#services/money/settlement_policy_service'
import { PAYOUT_STATUSES } from '#services/money/payout_service'
import { DISPUTE_REASONS, DISPUTE_STATUSES } from '#services/money/dispute_rules'
import {
  adjustmentValidator,
  settlementPolicyValidator,
  showSettlementValidator,
} from '#validators/settlement'
import {
  createPayoutRunValidator,
  listPayoutsValidator,
  markPayoutFailedValidator,
  markPayoutPaidValidator,
  statementValidator,
} from '#validators/payout'
import { fundsQueryValidator, topUpValidator } from '#validators/buyer'
import {
  decideDisputeValidator,
  listDisputesValidator,
  openDisputeValidator,
  respondToDisputeValidator,
} from '#validators/dispute'
import { type Docs, fromValidator, queryParameters, schemaOf } from './from_validator.js'
import {
  arrayOf,
  list,
  nullable,
  operation,
  page,
  param,
  record,
  ref,
  type Section,
} from './helpers.js'

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

const policyDocs: Docs = {
  payout_schedule: { default: 'monthly' },
  minimum_payout_cents: 'Below it a payout waits for the next run.',
  response_hours: {
    default: 72,
    description: 'Hours the publisher has to answer a dispute; unanswered, it is upheld.',
  },
  decision_hours: {
    default: 120,
    description: 'Hours the operator has to decide a dispute the rules could not.',
  },
  default_outcome: {
    default: 'upheld',
    description: 'What an undecided dispute comes to when the operator’s deadline passes.',
  },
}

/** Payouts, payout runs and buyer statements (docs/money.md, "Payouts and statements"). */
const payoutFields = {
  id: ref('Id'),
  publisher_id: ref('Id'),
  period: record({
    start: {
      ...nullable({ type: 'string', format: 'date' }),
      description: 'The day after the publisher’s previous payout; null for its first.',
    },
    end: { type: 'string', format: 'date', description: 'Sales final by the end of this day.' },
  }),
  amount_cents: {
    type: 'integer',
    minimum: 1,
    description: 'What the publisher is paid, net of clawbacks and adjustments.',
  },
  currency: ref('Currency'),
  status: { type: 'string', enum: [...PAYOUT_STATUSES] },
  reference: {
    ...nullable({ type: 'string', maxLength: 200 }),
    description: 'The transfer’s reference, once paid.',
  },
  failure: {
    ...nullable({ type: 'string', maxLength: 500 }),
    description: 'Why the transfer failed, when it did.',
  },
  lead_count: { type: 'integer', minimum: 0, description: 'Sales it pays.' },
  environment: {
    ...ref('Environment'),
    description:
      'Whose money it pays: live sales, or sandbox ones (sandbox accounts, `payout.processed` to sandbox endpoints).',
  },
  created_at: ref('Timestamp'),
  paid_at: nullable(ref('Timestamp')),
}

const payoutSchemas = {
  Payout: record(payoutFields),
  PayoutPage: page('Payout'),
  PayoutLine: record({
    lead_id: { ...nullable(ref('Id')), description: 'Null on an adjustment line.' },
    kind: {
      type: 'string',
      enum: ['earning', 'clawback', 'adjustment'],
      description:
        '`earning`: a sale’s payout; `clawback`: a sale returned after an earlier payout paid it (negative; positive when that payout failed); `adjustment`: the operator’s manual adjustments.',
    },
    amount_cents: { type: 'integer' },
  }),
  PayoutDetail: record({
    ...payoutFields,
    lines: arrayOf(ref('PayoutLine'), { description: 'They sum to `amount_cents`.' }),
  }),
  PayoutRun: record({
    runs: arrayOf(
      record({
        id: ref('Id'),
        label: { ...nullable(ref('Slug')), description: 'Null: the publishers without a label.' },
        environment: ref('Environment'),
        period_end: { type: 'string', format: 'date' },
        publishers: {
          type: 'integer',
          description: 'Publishers owed at least the minimum, net of open payouts.',
        },
        payouts: { type: 'integer', description: 'Payouts this run created.' },
        totals: arrayOf(
          record({
            currency: ref('Currency'),
            payouts: { type: 'integer' },
            amount_cents: { type: 'integer' },
          })
        ),
      })
    ),
    payouts: { type: 'integer', description: 'Payouts created, over every run.' },
  }),
  StatementTotals: record({
    currency: ref('Currency'),
    accepted: record({
      count: { type: 'integer' },
      amount_cents: { type: 'integer', description: 'The price of the leads sold.' },
    }),
    returned: record({
      count: { type: 'integer' },
      amount_cents: { type: 'integer', description: 'The price credited for leads returned.' },
    }),
    net_cents: { type: 'integer', description: 'Accepted minus returned.' },
  }),
  BuyerStatement: record({
    buyer_id: ref('Id'),
    from: ref('Timestamp'),
    to: ref('Timestamp'),
    currency: ref('Currency'),
    accepted: record({ count: { type: 'integer' }, amount_cents: { type: 'integer' } }),
    returned: record({ count: { type: 'integer' }, amount_cents: { type: 'integer' } }),
    net_cents: { type: 'integer' },
    currencies: arrayOf(ref('StatementTotals'), {
      description: 'Every currency of the period; the top-level figures are the first.',
    }),
    lines: arrayOf(
      record({
        lead_id: ref('Id'),
        kind: { type: 'string', enum: ['accepted', 'returned'] },
        amount_cents: { type: 'integer', description: 'Signed: a return is negative.' },
        currency: ref('Currency'),
        booked_at: ref('Timestamp'),
      })
    ),
  }),
}

const payoutPaths = {
  '/v1/payout-runs': {
    post: operation('/v1/payout-runs', {
      id: 'createPayoutRun',
      tag: 'Money',
      summary: 'Run payouts',
      description:
        'For each label (or the one named) and its period, one payout per publisher and currency of what the ledger says it is owed: its payable balance, less open payouts and sales final after the period — so clawbacks and adjustments net out and a negative balance carries forward. A payout is made when that amount reaches the label’s minimum. Idempotent per publisher, period and environment: running again creates nothing new. One environment per run: live unless `environment` is `sandbox`. The settlement clock runs each label, live and sandbox, when its period ends. One run at a time: 409 `payout_run_in_progress` while another runs.',
      scope: 'submit',
      body: fromValidator(createPayoutRunValidator, {
        name: 'PayoutRunCreate',
        docs: {
          label:
            'Only this label’s publishers; every label (and publishers without one) if left out.',
          period_end:
            'Pay sales final by the end of this day (UTC, today at the latest). Default: the last day of the last full period of each label’s schedule.',
          environment: {
            default: 'live',
            description:
              'Pay live sales (the default) or sandbox ones, from that environment’s payable accounts; the other environment is untouched.',
          },
        },
        example: { label: 'acme', period_end: '2026-10-31' },
      }),
      success: { status: 202, description: 'What the run created.', schema: ref('PayoutRun') },
      errors: [409],
    }),
  },
  '/v1/payouts': {
    get: operation(
      '/v1/payouts',
      list(
        'listPayouts',
        'Money',
        'Payouts',
        'Payout',
        'Newest first: a publisher’s own; the operator’s every publisher’s (or `publisher_id`’s).',
        queryParameters(listPayoutsValidator, {
          publisher_id: 'Operator: whose.',
          environment:
            'Live or sandbox payouts; default the credential’s environment (a sandbox credential reads sandbox ones only).',
        })
      )
    ),
  },
  '/v1/payouts/{id}': {
    parameters: [param('Id')],
    get: operation('/v1/payouts/{id}', {
      id: 'getPayout',
      tag: 'Money',
      summary: 'A payout and its lines',
      scope: 'read',
      success: { status: 200, description: 'The payout.', schema: ref('PayoutDetail') },
    }),
  },
  '/v1/payouts/{id}/mark-paid': {
    parameters: [param('Id')],
    post: operation('/v1/payouts/{id}/mark-paid', {
      id: 'markPayoutPaid',
      tag: 'Money',
      summary: 'Mark a payout paid',
      description:
        'The money left: the ledger books it, each sale it pays becomes `paid_out` (an audit entry per lead) and the publisher’s endpoints get `payout.processed` (kind `publisher_payout`). 409 `payout_closed` when it is paid or failed already.',
      scope: 'submit',
      body: fromValidator(markPayoutPaidValidator, {
        name: 'PayoutPaid',
        example: { reference: 'SEPA-2026-11-0042' },
      }),
      success: { status: 200, description: 'The payout.', schema: ref('PayoutDetail') },
      errors: [409],
    }),
  },
  '/v1/payouts/{id}/mark-failed': {
    parameters: [param('Id')],
    post: operation('/v1/payouts/{id}/mark-failed', {
      id: 'markPayoutFailed',
      tag: 'Money',
      summary: 'Mark a payout failed',
      description:
        'The transfer did not arrive: the payout is closed and its sales released, so the next run pays them. Nothing was booked, so nothing is reversed. 409 `payout_closed` when it is paid or failed already.',
      scope: 'submit',
      body: fromValidator(markPayoutFailedValidator, {
        name: 'PayoutFailed',
        example: { reason: 'IBAN rejected by the bank' },
      }),
      success: { status: 200, description: 'The payout.', schema: ref('PayoutDetail') },
      errors: [409],
    }),
  },
  '/v1/buyers/{id}/statement': {
    parameters: [param('Id')],
    get: operation('/v1/buyers/{id}/statement', {
      id: 'getBuyerStatement',
      tag: 'Money',
      summary: 'A buyer’s statement',
      description:
        'Leads sold to the buyer (accepted, at their price) minus those it returned, booked in the period, from its side of the ledger. The buyer itself or the operator; never a publisher or a payout. A sandbox credential reads its sandbox purchases, a live one live ones. With `Accept: text/csv` or `format=csv`, the lines as a CSV download.',
      scope: 'read',
      parameters: queryParameters(statementValidator, {
        from: 'Timestamp or date (UTC); default the first of this month.',
        to: 'Exclusive; default now.',
      }),
      success: {
        status: 200,
        description: 'The statement (JSON), or its lines (CSV).',
        schema: ref('BuyerStatement'),
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      errors: [422],
    }),
  },
}

/** Disputes (docs/money.md, "Disputes"). */
const disputeDelivery = {
  type: 'object',
  description:
    'The sale the dispute is about, as the caller may see it: the buyer its price, the publisher its payout, the operator both and the routing rule.',
  properties: {
    delivered_at: ref('Timestamp'),
    routing_rule_id: { ...nullable(ref('Id')), description: 'Operator only.' },
    price_cents: { ...ref('Cents'), description: 'Buyer and operator only.' },
    payout_cents: { ...ref('Cents'), description: 'Publisher and operator only.' },
    currency: ref('Currency'),
  },
  required: ['delivered_at', 'currency'],
}

const disputeFields = {
  id: ref('Id'),
  lead_id: ref('Id'),
  publisher_id: { ...ref('Id'), description: 'Operator only.' },
  buyer_id: { ...ref('Id'), description: 'Operator only.' },
  reason: { type: 'string', enum: [...DISPUTE_REASONS] },
  status: {
    type: 'string',
    enum: [...DISPUTE_STATUSES],
    description: '`open → responded → upheld | rejected`, or `withdrawn` by the buyer.',
  },
  environment: {
    ...ref('Environment'),
    description: 'The sale’s: a sandbox dispute moves sandbox money and tells sandbox endpoints.',
  },
  opened_at: ref('Timestamp'),
  respond_by: { ...ref('Timestamp'), description: 'Unanswered by then, the dispute is upheld.' },
  decide_by: {
    ...ref('Timestamp'),
    description: 'Undecided by then, the label’s default outcome applies.',
  },
  responded_at: nullable(ref('Timestamp')),
  withdrawn_at: nullable(ref('Timestamp')),
  delivery: disputeDelivery,
  proof_url: {
    type: 'string',
    description: 'The lead’s proof bundle (GET /v1/audit-logs/proof?lead_id=).',
    examples: ['/v1/audit-logs/proof?lead_id=01932a6e-8d2c-7b4e-9a51-3c0b5f6e7d80'],
  },
  decision: nullable(ref('DisputeDecision')),
}
const disputeRequired = Object.keys(disputeFields).filter(
  (name) => name !== 'publisher_id' && name !== 'buyer_id'
)

const responseText = schemaOf(respondToDisputeValidator, { text: 'The publisher’s answer.' })

const disputeSchemas = {
  DisputeDecision: record({
    outcome: { type: 'string', enum: [...DISPUTE_OUTCOMES] },
    decided_by: {
      type: 'string',
      description:
        'The rule that decided (`rule:consent_proof`, `rule:duplicate`, `rule:no_response`, `rule:default_outcome`), else `operator` (the operator reads who).',
    },
    decided_at: ref('Timestamp'),
  }),
  DisputeSummary: {
    type: 'object',
    properties: disputeFields,
    required: disputeRequired,
  },
  DisputeSummaryPage: page('DisputeSummary'),
  ConsentEvidence: record({
    method: { type: 'string', enum: ['checkbox', 'form_submit', 'api', 'upload'] },
    text: { ...nullable({ type: 'string' }), description: 'The wording agreed to.' },
    text_version: { type: 'integer', minimum: 1 },
    text_digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    page_url: nullable({ type: 'string' }),
    consented_at: ref('Timestamp'),
    ip_commitment: nullable({ type: 'string', pattern: '^[0-9a-f]{64}$' }),
    email_commitment: nullable({ type: 'string', pattern: '^[0-9a-f]{64}$' }),
    phone_commitment: nullable({ type: 'string', pattern: '^[0-9a-f]{64}$' }),
  }),
  DisputeFile: record({
    id: ref('Id'),
    filename: { type: 'string', maxLength: 200 },
    size_bytes: { type: 'integer', minimum: 1 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
  Dispute: {
    type: 'object',
    properties: {
      ...disputeFields,
      consent_evidence: {
        ...nullable(ref('ConsentEvidence')),
        description: 'As the lead’s page shows it; null for a lead without valid consent.',
      },
      verification: {
        ...ref('LeadVerification'),
        description: 'The lead’s trail recomputed, as GET /v1/audit-logs/verify?lead_id= answers.',
      },
      thread: arrayOf(
        record({
          author: { type: 'string', enum: ['buyer', 'publisher', 'operator'] },
          text: nullable({ type: 'string' }),
          files: arrayOf(ref('DisputeFile')),
          created_at: ref('Timestamp'),
        }),
        { description: 'What the parties wrote, oldest first.' }
      ),
    },
    required: [...disputeRequired, 'consent_evidence', 'verification', 'thread'],
  },
  // The files are read by the controller, before respondToDisputeValidator checks the text.
  DisputeResponseUpload: {
    ...responseText,
    properties: {
      ...(responseText.properties as object),
      attachments: arrayOf(
        { type: 'string', contentMediaType: 'application/octet-stream' },
        {
          maxItems: 5,
          description:
            'Up to 5 files of at most 5 MB each: PDF, PNG, JPEG, plain text or CSV, checked against their bytes. Too large: 413 `file_too_large`; another kind: 415 `unsupported_file_type`; a sixth: 422.',
        }
      ),
    },
  },
}

const disputeAnswer = (status: number, description: string) => ({
  status,
  description,
  schema: ref('Dispute'),
})

const respondToDispute = operation('/v1/disputes/{id}/responses', {
  id: 'respondToDispute',
  tag: 'Money',
  summary: 'Answer a dispute',
  description:
    'The publisher of the lead, before `respond_by`: text, and in a multipart body files as well (`attachments`), each stored with its SHA-256 (in the thread and the `dispute.responded` event; the audit entry `dispute.responded` records the step). The dispute becomes `responded` and waits for the operator. 409 `response_deadline_passed` after the deadline, `dispute_closed` once decided or withdrawn.',
  scope: 'submit',
  body: fromValidator(respondToDisputeValidator, {
    name: 'DisputeResponseCreate',
    docs: { text: 'The publisher’s answer.' },
    example: {
      text: 'The applicant confirmed the request by phone on 12 November; recording attached.',
    },
  }),
  success: disputeAnswer(201, 'The dispute, with the answer in its thread.'),
  errors: [409],
})

/** Buyer funds (docs/money.md, "Buyer funds"). */
const fundsPaths = {
  '/v1/buyers/{id}/funds': {
    parameters: [param('Id')],
    get: operation('/v1/buyers/{id}/funds', {
      id: 'getBuyerFunds',
      tag: 'Money',
      summary: 'A buyer’s funds',
      description:
        'Its billing mode, balance, credit limit, what offers in flight hold and what is available: the sale never offers the buyer a lead at a price above `available_cents`. The buyer itself or the operator.',
      scope: 'read',
      parameters: queryParameters(fundsQueryValidator, {
        currency: 'The account in this currency; default the one changed last.',
      }),
      success: { status: 200, description: 'The funds.', schema: ref('BuyerFunds') },
      errors: [422],
    }),
  },
  '/v1/buyers/{id}/funds/top-ups': {
    parameters: [param('Id')],
    post: operation('/v1/buyers/{id}/funds/top-ups', {
      id: 'topUpBuyerFunds',
      tag: 'Money',
      summary: 'Record a top-up',
      description:
        'Money the buyer paid in: its balance rises at once. The operator’s alone; one `reference` books once (409 `top_up_recorded`); the buyer must have a billing mode (422 `no_billing`) in that currency (422 `currency_mismatch`).',
      scope: 'submit',
      body: fromValidator(topUpValidator, {
        name: 'TopUpCreate',
        docs: {
          amount_cents: 'What was paid in, in cents.',
          reference: 'The payment’s reference (a bank transfer’s, say).',
          currency: 'Needed when the buyer keeps funds in more than one currency.',
        },
        example: { amount_cents: 50000, reference: 'TRF-2026-12-0001' },
      }),
      success: {
        status: 201,
        description: 'The top-up, and the funds after it.',
        schema: ref('TopUp'),
      },
      errors: [409],
    }),
  },
}

const disputePaths = {
  '/v1/leads/{id}/disputes': {
    parameters: [param('Id')],
    post: operation('/v1/leads/{id}/disputes', {
      id: 'createDispute',
      tag: 'Money',
      summary: 'Return a lead',
      description:
        'The buyer the lead was sold to (404 for a lead out of the caller’s sight; 403 for its publisher and the operator), while its sale is pending: 409 `outside_return_window` once the window has closed or the sale is final, 409 `dispute_open` while another dispute about it is open. The rules decide first: `consent_disputed` against a consent proof that verifies is rejected at once, a `duplicate` the platform confirms (an earlier lead of the same publisher with the same e-mail or phone, within its duplicate window or 30 days) is upheld at once. Otherwise the publisher has until `respond_by` to answer (else upheld), then the operator until `decide_by` (else the label’s default outcome). Upheld settles itself: the buyer is credited, the publisher loses the payout, the lead becomes `returned`.',
      scope: 'submit',
      body: fromValidator(openDisputeValidator, {
        name: 'DisputeCreate',
        docs: { details: 'What is wrong with the lead; required with reason `other`.' },
        example: { reason: 'invalid_contact', details: 'The phone number is not in service.' },
      }),
      success: disputeAnswer(201, 'The dispute (already decided when a rule could).'),
      errors: [409],
    }),
  },
  '/v1/disputes': {
    get: operation(
      '/v1/disputes',
      list(
        'listDisputes',
        'Money',
        'Disputes',
        'DisputeSummary',
        'Newest first: the operator’s all, a publisher’s about its leads, a buyer’s its own; each without thread and evidence (GET one for those).',
        queryParameters(listDisputesValidator, {
          publisher_id: 'Operator: whose leads.',
          buyer_id: 'Operator: whose.',
          environment:
            'Live or sandbox disputes; default the credential’s environment (a sandbox credential reads sandbox ones only).',
        })
      )
    ),
  },
  '/v1/disputes/{id}': {
    parameters: [param('Id')],
    get: operation('/v1/disputes/{id}', {
      id: 'getDispute',
      tag: 'Money',
      summary: 'A dispute',
      description:
        'With the delivery, the lead’s consent evidence, its trail’s verification, the link to its proof bundle and the thread. A publisher never reads the buyer or the price; a buyer never the publisher or the payout.',
      scope: 'read',
      success: { status: 200, description: 'The dispute.', schema: ref('Dispute') },
    }),
  },
  '/v1/disputes/{id}/responses': {
    parameters: [param('Id')],
    post: {
      ...respondToDispute,
      requestBody: {
        required: true,
        content: {
          ...respondToDispute.requestBody!.content,
          'multipart/form-data': { schema: ref('DisputeResponseUpload') },
        },
      },
    },
  },
  '/v1/disputes/{id}/decision': {
    parameters: [param('Id')],
    post: operation('/v1/disputes/{id}/decision', {
      id: 'decideDispute',
      tag: 'Money',
      summary: 'Decide a dispute',
      description:
        'The operator, while the dispute is open or responded (409 `dispute_closed` once decided or withdrawn; of two decisions at once exactly one wins). Upheld settles in the same transaction: a return out of pending (a clawback once the sale was final), the lead `returned`, `dispute.decided` to both parties.',
      scope: 'submit',
      body: fromValidator(decideDisputeValidator, {
        name: 'DisputeDecisionCreate',
        docs: { note: 'For the thread; both parties read it.' },
        example: { outcome: 'upheld', note: 'The number was never in service.' },
      }),
      success: disputeAnswer(200, 'The decided dispute.'),
      errors: [409],
    }),
  },
  '/v1/disputes/{id}/withdraw': {
    parameters: [param('Id')],
    post: operation('/v1/disputes/{id}/withdraw', {
      id: 'withdrawDispute',
      tag: 'Money',
      summary: 'Withdraw a dispute',
      description:
        'The buyer that opened it, while open or responded (409 `dispute_closed` after). The sale goes on as if no dispute was opened: final once its window has closed.',
      scope: 'submit',
      success: disputeAnswer(200, 'The withdrawn dispute.'),
      errors: [409],
    }),
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
  LedgerAdjustment: record({
    movement_id: ref('Id'),
    publisher_id: ref('Id'),
    amount_cents: { type: 'integer' },
    currency: ref('Currency'),
    note: { type: 'string' },
  }),
  ...payoutSchemas,
  ...disputeSchemas,
  BuyerFunds: record({
    mode: {
      ...nullable({ type: 'string', enum: ['prepaid', 'credit'] }),
      description: 'Null: no billing mode is set, and the buyer is not limited by funds.',
    },
    currency: nullable(ref('Currency')),
    balance_cents: {
      type: 'integer',
      description: 'Top-ups and returns in, sales out; a credit buyer’s goes below zero.',
    },
    credit_limit_cents: ref('Cents'),
    reserved_cents: { ...ref('Cents'), description: 'Held by offers in flight.' },
    available_cents: {
      ...nullable({ type: 'integer' }),
      description:
        'balance + credit limit − reserved: no lead is offered to the buyer at a price above it. Null when funds are not kept.',
    },
  }),
  TopUp: record({
    id: ref('Id'),
    buyer_id: ref('Id'),
    amount_cents: ref('Cents'),
    currency: ref('Currency'),
    reference: { type: 'string' },
    created_at: ref('Timestamp'),
    funds: ref('BuyerFunds'),
  }),
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
          'Pending, payable and paid amounts from the ledger, accepted and returned volume, open disputes and the next payout. A publisher gets its own; the operator names `publisher_id`. The credential’s environment: a live one reads live money only, a sandbox one the sandbox’s.',
        scope: 'read',
        parameters: queryParameters(showSettlementValidator, {
          publisher_id: 'Operator: whose settlement.',
        }),
        success: { status: 200, description: 'The settlement.', schema: ref('Settlement') },
      }),
    },
    '/v1/ledger/adjustments': {
      post: operation('/v1/ledger/adjustments', {
        id: 'createLedgerAdjustment',
        tag: 'Money',
        summary: 'Adjust what a publisher is owed',
        description:
          'A balanced movement between the publisher’s payable balance and the operator’s adjustments account; the next payout run pays or nets it.',
        scope: 'submit',
        body: fromValidator(adjustmentValidator, {
          name: 'LedgerAdjustmentCreate',
          docs: {
            amount_cents: {
              description: 'Positive credits the publisher, negative takes back.',
              checkedByService: { not: { const: 0 } },
            },
            note: 'Why.',
          },
          example: {
            publisher_id: '01932a6e-8d2c-7b4e-9a51-3c0b5f6e7d80',
            amount_cents: 2500,
            currency: 'EUR',
            note: 'Bonus for the November campaign',
          },
        }),
        success: { status: 201, description: 'The adjustment.', schema: ref('LedgerAdjustment') },
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
        body: fromValidator(settlementPolicyValidator, {
          name: 'SettlementPolicy',
          docs: policyDocs,
          example: {
            payout_schedule: 'weekly',
            minimum_payout_cents: 5000,
            response_hours: 72,
            decision_hours: 120,
            default_outcome: 'upheld',
          },
        }),
        success: { status: 200, description: 'The rules.', schema: ref('SettlementPolicy') },
      }),
    },
    ...payoutPaths,
    ...fundsPaths,
    ...disputePaths,
  },
}
