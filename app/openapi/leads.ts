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
import { LISTED_STATUSES } from '#services/leads/lead_presenter'
import {
  createLeadValidator,
  createRequestValidator,
  listLeadsValidator,
  reviewLeadValidator,
} from '#validators/lead'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'

/** Lead delivery and lookup; one validation pipeline for every route a lead arrives by. */
const publisher =
  "The delivering publisher's slug; a publisher key may only name its own publisher."

const shapes: Record<string, Docs> = {
  Contact: {
    '': "Which fields must be present is up to the publisher's quality rules: a lead missing one is stored as rejected with `missing_field`.",
    'name': { examples: ['Jan Jansen'] },
    'email': {
      description: 'Checked by the `email` quality rule, not refused as malformed.',
      examples: ['jan@example.nl'],
    },
    'phone': { description: 'Any common notation; stored as E.164.', examples: ['+31612345678'] },
    'postal_code': { examples: ['1012 AB'] },
    'country': "Defaults to the publisher's country.",
  },
  Provenance: {
    source: { examples: ['facebook'] },
    campaign: { examples: ['spring-solar'] },
    landing_page: { examples: ['https://acme.example/solar'] },
  },
  Consent: {
    '': 'Valid consent is `given: true` with text, timestamp and IP; anything less rejects the lead with `missing_consent` or `invalid_consent`.',
    'text': 'The exact consent wording shown to the applicant.',
    'ip': {
      description: 'The IPv4 or IPv6 address of the applicant.',
      examples: ['198.51.100.23'],
    },
  },
  Attributes: {
    '': {
      description:
        'A flat object of custom fields that target-audience rules read (age, product, homeowner…).',
      examples: [{ age: 42, homeowner: true, product: 'solar' }],
    },
  },
  LeadFields: { publisher },
}

const schemas = {
  LeadStatus: {
    type: 'string',
    // The statuses a list filters on, with the two a lead passes through within its intake.
    enum: ['received', 'consented', 'validated', ...LISTED_STATUSES.slice(1)],
    description:
      '`received → consented → validated → accepted | flagged | rejected`, then `accepted → matched → delivered → paid_out`; `returned` when the buyer’s dispute was upheld.',
  },
  RequestStatus: {
    type: 'string',
    enum: ['received', 'accepted', 'matched', 'paid_out', 'returned', 'rejected', 'flagged'],
    description: "The lookup view of a lead's progress (`delivered` shows as `matched`).",
  },
  Reason: {
    type: 'object',
    required: ['code', 'action', 'message'],
    properties: {
      code: {
        type: 'string',
        enum: [
          'outside_target_audience',
          'invalid_phone',
          'invalid_email',
          'invalid_postal_code',
          'missing_consent',
          'invalid_consent',
          'missing_field',
          'duplicate',
          'review_rejected',
        ],
        description:
          '`review_rejected`: the operator rejected the flagged lead on review; `message` is its reason.',
      },
      field: { type: 'string', description: 'The lead field concerned, when there is one.' },
      action: ref('RuleAction'),
      message: { type: 'string' },
    },
  },
  ProvenanceView: {
    type: 'object',
    properties: {
      source: { type: 'string' },
      campaign: { type: 'string' },
      label: {
        ...nullable({ type: 'string' }),
        description: "The slug of the publisher's label, assigned by Leadgate.",
      },
      landing_page: { type: 'string' },
    },
    required: ['label'],
  },
  QualityCheck: record({
    consent: { type: 'string', enum: ['valid', 'missing', 'invalid'] },
    target_audience: { type: 'string', enum: ['within', 'outside'] },
    duplicate: { type: 'boolean' },
  }),
  LeadOutcome: record({
    id: ref('Id'),
    publisher: ref('Slug'),
    status: { type: 'string', enum: ['accepted', 'flagged', 'rejected'] },
    environment: ref('Environment'),
    quality_check: ref('QualityCheck'),
    reasons: arrayOf(ref('Reason')),
    sale: ref('SaleAnswer'),
    created_at: ref('Timestamp'),
  }),
  Lead: withOptional(
    record({
      id: ref('Id'),
      publisher: {
        ...nullable(ref('Slug')),
        description: "The delivering publisher's slug; null for buyers, who see the label only.",
      },
      status: ref('LeadStatus'),
      environment: ref('Environment'),
      channel: {
        type: 'string',
        description: 'How the lead arrived: `api`, `request`, `form` or `upload`.',
      },
      contact: { type: 'object', description: 'As delivered (see Contact).' },
      provenance: ref('ProvenanceView'),
      consent: { type: 'object', description: 'As delivered (see Consent).' },
      attributes: { type: 'object', description: 'As delivered (see Attributes).' },
      quality_check: ref('QualityCheck'),
      reasons: arrayOf(ref('Reason')),
      created_at: ref('Timestamp'),
    }),
    {
      buyer_id: {
        ...nullable(ref('Id')),
        description: 'Operator only: the buyer the lead was sold to.',
      },
      price_cents: {
        ...nullable({ type: 'integer' }),
        description: 'Operator and the buying buyer: what the buyer pays.',
      },
      payout_cents: {
        ...nullable({ type: 'integer' }),
        description: 'Operator and the delivering publisher: what the publisher earns.',
      },
      currency: nullable({ type: 'string', pattern: '^[A-Z]{3}$' }),
      unsold_reason: {
        ...nullable({
          type: 'string',
          enum: [
            'no_rule',
            'criteria',
            'outside_schedule',
            'cap_reached',
            'rejected',
            'deadline',
            'insufficient_funds',
            'buyer_duplicate',
          ],
        }),
        description: 'Operator only: why an accepted lead has no buyer yet.',
      },
      review: {
        description:
          'Operator and the delivering publisher: the review of a flagged lead, null until there was one. `reviewer` is shown to the operator only.',
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['decision', 'reason', 'reviewed_at'],
            properties: {
              decision: { type: 'string', enum: ['approve', 'reject'] },
              reason: nullable({ type: 'string', maxLength: 500 }),
              reviewed_at: ref('Timestamp'),
              reviewer: {
                type: 'string',
                description: 'The actor who decided, e.g. `operator:<user id>`.',
              },
            },
          },
        ],
      },
      routing: {
        description: 'Operator only: the routing decision.',
        oneOf: [
          { type: 'null' },
          record({
            buyer_id: ref('Id'),
            rule_id: ref('Id'),
            price_cents: { type: 'integer' },
            payout_cents: { type: 'integer' },
            currency: { type: 'string' },
            matched_at: ref('Timestamp'),
          }),
          record({
            unsold_reason: nullable({ type: 'string' }),
            routed_at: nullable(ref('Timestamp')),
          }),
        ],
      },
    }
  ),
  LeadPage: page('Lead'),
  RequestStatusView: record({ id: ref('Id'), status: ref('RequestStatus') }),
}

/** Fields only some readers see: present for them, absent for the others. */
function withOptional(schema: Record<string, any>, optional: Record<string, unknown>) {
  return { ...schema, properties: { ...schema.properties, ...optional } }
}

const submissionExample = {
  publisher: 'acme-media',
  contact: {
    name: 'Jan Jansen',
    email: 'jan@example.nl',
    phone: '+31612345678',
    postal_code: '1012 AB',
    country: 'NL',
  },
  provenance: {
    source: 'facebook',
    campaign: 'spring-solar',
    landing_page: 'https://acme.example/solar',
  },
  consent: {
    given: true,
    text: 'I agree that Acme may contact me about solar panels.',
    timestamp: '2025-01-31T09:29:12Z',
    ip: '198.51.100.23',
  },
  attributes: { age: 42, homeowner: true },
}

const outcomeResponses = {
  success: {
    status: 201,
    description: 'Accepted or flagged (held for review).',
    schema: ref('LeadOutcome'),
    headers: {
      'Idempotent-Replayed': {
        description:
          '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
        schema: { type: 'string', enum: ['true'] },
      },
      'Preference-Applied': {
        description:
          '`wait=N` when the answer waited up to N seconds for the sale (`Prefer: wait=N`, at most 30).',
        schema: { type: 'string', pattern: '^wait=[0-9]+$' },
      },
    },
  },
  errors: [409],
  overrides: {
    410: {
      description: 'The ping its `ping_id` names has expired (`ping_expired`): ping again.',
      content: { 'application/problem+json': { schema: ref('Problem') } },
    },
    422: {
      description:
        'Either the lead was rejected by a quality rule (`application/json`: the lead is stored and the body carries its id and `reasons`), ' +
        'or the body itself is invalid (`application/problem+json`, nothing stored).',
      content: {
        'application/json': { schema: ref('LeadOutcome') },
        'application/problem+json': { schema: ref('Problem') },
      },
    },
  },
}

const leadFilters = queryParameters(listLeadsValidator, {
  publisher: 'Publisher slug (operator).',
  label: 'Label slug.',
  from: 'Created at or after.',
  to: 'Created before.',
  unsold: 'Accepted leads without (true) or with (false) a buyer.',
  buyer_id: 'Operator only (403 `filter_not_allowed` otherwise): leads sold to this buyer.',
  reason: 'Leads given this reason (`reasons[].code`).',
  channel: 'How the lead arrived.',
})

/** The list, and with `format=csv` every visible lead as one streamed CSV (the visible fields only). */
function listWithCsv() {
  const spec = list(
    'listLeads',
    'Leads',
    'List leads',
    'Lead',
    'A publisher sees its own leads, a buyer the leads delivered to it, a label manager its label’s, the operator all. With `format=csv`, every lead the filters match as a streamed CSV of the fields the caller may see.',
    leadFilters
  )
  return {
    ...spec,
    success: { ...spec.success, content: { 'text/csv': { schema: { type: 'string' } } } },
  }
}

export const leads: Section = {
  tags: [
    {
      name: 'Leads',
      description:
        "Deliver leads and read them back. Every lead is checked against its publisher's quality rules on arrival and answered accepted, flagged or rejected.",
    },
    {
      name: 'Requests',
      description:
        'Leads from other sources (ad lead forms, form tools, spreadsheet rows, no-code HTTP modules) through the same pipeline, and their status lookup.',
    },
  ],
  schemas,
  shapes,
  paths: {
    '/v1/leads': {
      post: operation('/v1/leads', {
        id: 'submitLead',
        tag: 'Leads',
        summary: 'Deliver a lead',
        description:
          "Needs a publisher key with `submit`. Validates the shape, then the publisher's quality rules; the lead, its consent proof and its audit entries are stored in one transaction.",
        scope: 'submit',
        parameters: [param('IdempotencyKey'), param('PreferWait')],
        body: fromValidator(createLeadValidator, {
          name: 'LeadSubmission',
          docs: {
            publisher,
            ping_id:
              'The `ping_id` of a `POST /v1/pings` offer: the lead sells at that payout. Its fields must be the ping’s (409 `ping_mismatch`); a ping sells one lead (409 `ping_used`) until `expires_at` (410 `ping_expired`).',
          },
          example: submissionExample,
        }),
        ...outcomeResponses,
      }),
      get: operation('/v1/leads', listWithCsv()),
    },
    '/v1/leads/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/leads/{id}', {
        id: 'getLead',
        tag: 'Leads',
        summary: 'Get a lead',
        description: 'With provenance, consent and the outcome of validation.',
        scope: 'read',
        success: { status: 200, description: 'The lead.', schema: ref('Lead') },
      }),
    },
    '/v1/leads/{id}/review': {
      parameters: [param('Id')],
      post: operation('/v1/leads/{id}/review', {
        id: 'reviewLead',
        tag: 'Leads',
        summary: 'Review a flagged lead',
        description:
          'Operator only. Decides a lead a quality rule flagged (held for review); any other lead, or one already reviewed, answers 409 `lead_not_flagged`. ' +
          'The lead, an audit entry with the reviewer as actor and the `lead.reviewed` event are stored together; an approved live lead is routed like any accepted lead.',
        scope: 'submit',
        body: fromValidator(reviewLeadValidator, {
          name: 'LeadReview',
          docs: {
            decision:
              '`approve`: the lead becomes accepted and goes on to routing. `reject`: it becomes rejected.',
            reason: 'Why; required to reject. The publisher reads it among the lead’s reasons.',
          },
          example: { decision: 'reject', reason: 'The phone number belongs to a business.' },
        }),
        success: {
          status: 200,
          description: 'The lead, as GET /v1/leads/{id} shows it.',
          schema: ref('Lead'),
        },
        errors: [409],
      }),
    },
    '/v1/requests': {
      post: operation('/v1/requests', {
        id: 'submitRequest',
        tag: 'Requests',
        summary: 'Submit a request from another source',
        description:
          'Same body, pipeline and answers as `POST /v1/leads`; consent is recorded as on direct API delivery.',
        scope: 'submit',
        parameters: [param('IdempotencyKey'), param('PreferWait')],
        body: fromValidator(createRequestValidator, {
          name: 'RequestSubmission',
          docs: {
            '': "As a lead; `publisher` may be left out with a publisher key (it is the key's publisher).",
          },
          example: submissionExample,
        }),
        ...outcomeResponses,
      }),
    },
    '/v1/requests/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/requests/{id}', {
        id: 'getRequest',
        tag: 'Requests',
        summary: "Look up a request's status",
        scope: 'read',
        success: { status: 200, description: 'The status.', schema: ref('RequestStatusView') },
      }),
    },
  },
}
