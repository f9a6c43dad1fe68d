import { ONBOARDING_STEPS, SANDBOX_LEADS_COUNTED } from '#services/catalogue/onboarding_service'
import { PAGE_LOCALES } from '#services/catalogue/label_service'
import { createLabelValidator, listLabelsValidator, updateLabelValidator } from '#validators/label'
import {
  confirmRulesValidator,
  createPublisherValidator,
  listPublishersValidator,
  updatePublisherValidator,
} from '#validators/publisher'
import { previewQualityRulesValidator, qualityRulesValidator } from '#validators/quality_rules'
import { createBuyerValidator, listBuyersValidator, updateBuyerValidator } from '#validators/buyer'
import {
  createRoutingRuleValidator,
  listRoutingRulesValidator,
  updateRoutingRuleValidator,
} from '#validators/routing_rule'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'
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

/**
 * The operator's catalogue: labels, publishers and their quality rules,
 * buyers, routing rules. Request bodies and filters come from the
 * validators; the words and the answers are here.
 */
const hostname = {
  type: 'string',
  maxLength: 253,
  description:
    "The label's own host name: a request arriving on it is branded with the label. No scheme, port, path or IP address; stored in lower-case ASCII (IDNs as punycode).",
  examples: ['leads.acme.example'],
}

const locale = {
  type: 'string',
  enum: [...PAGE_LOCALES],
  description: 'The language its hosted form pages speak to consumers (default en).',
}

const timeZone = {
  type: 'string',
  maxLength: 64,
  description: 'IANA time zone its reports read days and months in (default UTC).',
  examples: ['Europe/Berlin'],
}

const returnWindow = {
  type: 'integer',
  minimum: 0,
  maximum: 2160,
  default: 168,
  description:
    'Hours after a sale in which the buyer may return the lead (a dispute); 0 makes a sale final at once.',
}

const logoUrl = {
  description: 'https only: the logo shows on https pages and in e-mails.',
  examples: ['https://cdn.example/logo.svg'],
}
const primaryColor = { examples: ['#0f766e'] }
const labelDocs: Docs = {
  locale: locale.description,
  time_zone: { description: timeZone.description, examples: timeZone.examples },
}
const returnWindowDocs = { description: returnWindow.description, default: returnWindow.default }

const ruleDocs: Docs = {
  environment: {
    default: 'live',
    description:
      "Whose leads the rule sells: live ones, or the sandbox's (a sandbox lead meets only sandbox rules, a live lead only live ones). Fixed once created: a PATCH may repeat it; another value is refused with 422 `environment_fixed`.",
  },
  labels: 'Label slugs this rule takes leads from; all when empty.',
  publishers: 'Publisher ids this rule takes leads from; all when empty.',
  criteria: "Conditions over the lead's contact and attributes.",
  price_cents: 'What the buyer pays per lead.',
  payout_cents: 'What the publisher earns per lead.',
  return_window_hours: {
    description:
      "Overrides the buyer's return window for leads this rule sells; null keeps the buyer's.",
  },
  schedule: 'null clears it.',
  priority: { default: 0, description: 'Higher priority rules are tried first.' },
  weight: { default: 1, description: 'Share among matching rules of equal priority.' },
  enabled: { default: true },
}

const criterionValue = {
  description:
    '`between`: `[min, max]` numbers; `in`/`not_in`: 1 to 100 scalars; `eq`: a scalar; `gte`/`lte`: a number; `prefix`: a string.',
  examples: [[18, 75]],
}

const shapes: Record<string, Docs> = {
  Branding: { logo_url: logoUrl, primary_color: primaryColor },
  LeadFieldPath: {
    '': {
      description: 'A lead field, or `attributes.<key>` for a custom field.',
      examples: ['contact.email', 'attributes.age'],
    },
  },
  RuleAction: {
    '': '`reject` blocks the lead (stored with reasons); `flag` stores it and holds it for review.',
  },
  QualityCriterion: {
    '': 'A target-audience rule: the criterion, and what happens to a lead outside it.',
    'value': criterionValue,
  },
  RoutingCriterion: {
    '': 'A lead that fails it is only not routed to this buyer.',
    'value': criterionValue,
  },
  QualityRules: {
    '': 'Every key is optional and a missing key means its default, so `{}` is a complete document.',
    'required_fields': { examples: [['contact.email', 'contact.phone']] },
    'postal_code':
      "Whether a postal code is required. A given one is always checked for the lead's country.",
    'phone': 'An invalid phone number; rejects by default.',
    'email': 'An invalid e-mail address; rejects by default.',
    'consent': 'Provable consent: `given: true` with text, timestamp and IP.',
    'consent.required': 'Always true: a lead without valid consent is blocked.',
    'consent.max_age_days': 'Refuse consent older than this.',
    'duplicates': 'Off when absent.',
  },
  Schedule: {
    '': 'When the rule may match; always when null or absent.',
    'timezone': { description: 'An IANA time zone.', examples: ['Europe/Amsterdam'] },
    'windows[]': 'A window across midnight is two windows.',
    'windows.from': { examples: ['09:00'] },
    'windows.to': {
      description: 'Later than `from`; `24:00` closes at midnight.',
      examples: ['17:30'],
    },
  },
}

/** A rule as the operator reads it; a buyer reads its own without the fields named. */
function operatorOnly(fields: string[], properties: Record<string, unknown>) {
  return record(properties as Record<string, never>, {
    description: `A buyer reads its own rules without ${fields.map((field) => `\`${field}\``).join(', ')}.`,
    required: Object.keys(properties).filter((field) => !fields.includes(field)),
  })
}

const schemas = {
  Label: record({
    id: ref('Id'),
    slug: ref('Slug'),
    name: ref('Name'),
    branding: ref('Branding'),
    custom_host: nullable(hostname),
    locale,
    time_zone: timeZone,
    sale: ref('SaleSettings'),
    created_at: ref('Timestamp'),
  }),
  LabelPage: page('Label'),

  OnboardingStep: {
    type: 'string',
    enum: [...ONBOARDING_STEPS],
    description:
      'Onboarding in order: choose a delivery method, confirm the quality rules, test in the sandbox, ' +
      'request go-live, await the operator’s approval; once live (or paused after), monitor.',
  },
  Onboarding: record({
    step: ref('OnboardingStep'),
    rules_version: {
      type: 'integer',
      minimum: 0,
      description:
        'The version of the current quality rules; every change by the operator bumps it.',
    },
    rules_confirmed_at: {
      ...nullable(ref('Timestamp')),
      description:
        'When the publisher confirmed the current rules; null if it has not (or they changed since).',
    },
    sandbox_leads: {
      type: 'integer',
      minimum: 0,
      maximum: SANDBOX_LEADS_COUNTED,
      description: `Sandbox leads delivered so far, counted up to ${SANDBOX_LEADS_COUNTED}.`,
    },
    go_live_requested_at: nullable(ref('Timestamp')),
    went_live_at: {
      ...nullable(ref('Timestamp')),
      description: 'When the operator first set it live.',
    },
  }),
  Publisher: record({
    id: ref('Id'),
    slug: ref('Slug'),
    name: ref('Name'),
    contact_email: ref('Email'),
    label: { ...nullable({ type: 'string' }), description: "The label's slug." },
    country: ref('CountryCode'),
    status: ref('PublisherStatus'),
    delivery_methods: arrayOf(ref('DeliveryMethod')),
    onboarding: ref('Onboarding'),
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
  PublisherPage: page('Publisher'),

  QualityRulesPreview: record({
    outcome: {
      type: 'string',
      enum: ['accepted', 'flagged', 'rejected'],
      description: 'What intake would decide for the lead now.',
    },
    quality_check: ref('QualityCheck'),
    reasons: arrayOf(ref('Reason')),
  }),

  Buyer: record({
    id: ref('Id'),
    name: ref('Name'),
    contact_email: ref('Email'),
    status: { type: 'string', enum: ['active', 'paused'] },
    return_window_hours: returnWindow,
    duplicate_window_days: {
      ...nullable({ type: 'integer', minimum: 1, maximum: 365 }),
      description:
        'The buyer is never sold the same consumer (its e-mail or phone, by fingerprint) twice within this many days; null: no such window.',
    },
    created_at: ref('Timestamp'),
  }),
  BuyerPage: page('Buyer'),

  RoutingRule: operatorOnly(['payout_cents', 'payout_share_percent', 'publishers'], {
    id: ref('Id'),
    buyer_id: ref('Id'),
    environment: { ...ref('Environment'), ...(ruleDocs.environment as object) },
    labels: arrayOf(ref('Slug')),
    publishers: arrayOf(ref('Id')),
    criteria: arrayOf(ref('RoutingCriterion')),
    buyer_criteria: {
      ...arrayOf(ref('RoutingCriterion')),
      description: 'The buyer’s own filters: a lead must meet them as well as `criteria`.',
    },
    destination_id: {
      ...nullable(ref('Id')),
      description:
        'Where its sales go (one of its buyer’s destinations); null: the buyer’s `match.found` webhook.',
    },
    mode: {
      type: 'string',
      enum: ['fixed', 'ping_post'],
      description: '`fixed`: posted at `price_cents`; `ping_post`: the buyer bids first.',
    },
    exclusive: {
      type: 'boolean',
      description:
        'An exclusive sale is the lead’s only one; a shared one may sit beside others (the label’s `sale.max_sales`).',
    },
    reserve_cents: { ...nullable(ref('Cents')), description: 'ping_post: the lowest bid taken.' },
    payout_share_percent: {
      ...nullable({ type: 'integer', minimum: 1, maximum: 100 }),
      description: 'ping_post: the publisher’s share of the clearing price. Operator only.',
    },
    status: {
      type: 'string',
      enum: ['active', 'paused'],
      description: 'Whether it sells (the same as `enabled`).',
    },
    price_cents: { ...ref('Cents'), description: ruleDocs.price_cents },
    payout_cents: { ...ref('Cents'), description: `${ruleDocs.payout_cents} Operator only.` },
    currency: ref('Currency'),
    return_window_hours: { ...nullable(returnWindow), ...(ruleDocs.return_window_hours as object) },
    caps: ref('Caps'),
    schedule: nullable(ref('Schedule')),
    priority: {
      type: 'integer',
      minimum: -1000000,
      maximum: 1000000,
      ...(ruleDocs.priority as object),
    },
    weight: { type: 'integer', minimum: 1, maximum: 1000, ...(ruleDocs.weight as object) },
    enabled: { type: 'boolean', default: true },
    created_at: ref('Timestamp'),
    updated_at: ref('Timestamp'),
  }),
  RoutingRulePage: page('RoutingRule'),
}

export const catalogue: Section = {
  tags: [
    { name: 'Labels', description: 'White-label brands publishers deliver under. Operator only.' },
    {
      name: 'Publishers',
      description:
        'Affiliates, media agencies and own brands that deliver leads. Each publisher gets its own isolated data schema.',
    },
    {
      name: 'Quality rules',
      description:
        'The checks every lead of a publisher must pass; each failing rule rejects or flags the lead.',
    },
    { name: 'Buyers', description: 'The parties leads are routed to. Operator only.' },
    {
      name: 'Routing rules',
      description:
        'Which leads go to which buyer, at what price and payout, where and how. The operator manages them; a buyer reads its own (without payouts) and changes their filters, caps, schedule and status; publishers never see them.',
    },
  ],
  schemas,
  shapes,
  paths: {
    '/v1/labels': {
      post: operation('/v1/labels', {
        id: 'createLabel',
        tag: 'Labels',
        summary: 'Create a label',
        scope: 'submit',
        body: fromValidator(createLabelValidator, {
          name: 'LabelCreate',
          docs: labelDocs,
          example: {
            slug: 'acme-leads',
            name: 'Acme Leads',
            branding: { logo_url: 'https://cdn.example/acme.svg', primary_color: '#0f766e' },
          },
        }),
        success: { status: 201, description: 'The label.', schema: ref('Label') },
        errors: [409],
      }),
      get: operation(
        '/v1/labels',
        list(
          'listLabels',
          'Labels',
          'List labels',
          'Label',
          undefined,
          queryParameters(listLabelsValidator)
        )
      ),
    },
    '/v1/labels/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/labels/{id}', {
        id: 'getLabel',
        tag: 'Labels',
        summary: 'Get a label',
        scope: 'read',
        success: { status: 200, description: 'The label.', schema: ref('Label') },
      }),
      patch: operation('/v1/labels/{id}', {
        id: 'updateLabel',
        tag: 'Labels',
        summary: 'Update a label',
        description:
          'Rename it, change its branding, or give it a host of its own (unique across labels: 409 `host_taken`).',
        scope: 'submit',
        body: fromValidator(updateLabelValidator, {
          name: 'LabelUpdate',
          mergePatch: true,
          docs: {
            ...labelDocs,
            '': 'A merge patch: fields left out stay as they are.',
            'branding': 'Merged into the stored branding; null removes an entry.',
            'branding.logo_url': logoUrl,
            'branding.primary_color': primaryColor,
            'custom_host': {
              description: `${hostname.description} null frees it.`,
              examples: hostname.examples,
            },
          },
          example: {
            name: 'Acme Leads',
            branding: { primary_color: '#0f766e', logo_url: null },
            custom_host: 'leads.acme.example',
          },
        }),
        success: { status: 200, description: 'The updated label.', schema: ref('Label') },
        errors: [409],
      }),
    },
    '/v1/publishers': {
      post: operation('/v1/publishers', {
        id: 'createPublisher',
        tag: 'Publishers',
        summary: 'Invite a publisher',
        description:
          'Creates the publisher with status `invited`, provisions its data schema and e-mails the invitation to `contact_email`.',
        scope: 'submit',
        body: fromValidator(createPublisherValidator, {
          name: 'PublisherCreate',
          docs: {
            contact_email: 'Receives the invitation e-mail.',
            label: 'The slug of an existing label.',
            country: "Default country of the publisher's leads; `NL` when omitted.",
          },
          example: {
            slug: 'acme-media',
            name: 'Acme Media',
            contact_email: 'ops@acme.example',
            label: 'acme-leads',
            country: 'NL',
          },
        }),
        success: { status: 201, description: 'The invited publisher.', schema: ref('Publisher') },
        errors: [409],
      }),
      get: operation(
        '/v1/publishers',
        list(
          'listPublishers',
          'Publishers',
          'List publishers',
          'Publisher',
          'The operator sees every publisher; a publisher credential sees only itself.',
          queryParameters(listPublishersValidator, {
            label: 'Label slug.',
            search: 'Part of the name or the slug, in any case.',
            sort: '`created` (the default) or `name`.',
            order: 'Newest first when sorted by creation, A to Z by name, unless given.',
          })
        )
      ),
    },
    '/v1/publishers/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/publishers/{id}', {
        id: 'getPublisher',
        tag: 'Publishers',
        summary: 'Get a publisher',
        scope: 'read',
        success: { status: 200, description: 'The publisher.', schema: ref('Publisher') },
      }),
      patch: operation('/v1/publishers/{id}', {
        id: 'updatePublisher',
        tag: 'Publishers',
        summary: 'Update a publisher',
        description:
          'Rename, set live or pause, and choose delivery methods; the onboarding step follows. ' +
          "A publisher may change its own `delivery_methods`; everything else is the operator's. " +
          'Setting live a publisher that never was live needs its confirmation of its current quality rules ' +
          '(409 `rules_not_confirmed`); a paused one that was live may resume.',
        scope: 'submit',
        body: fromValidator(updatePublisherValidator, {
          name: 'PublisherUpdate',
          mergePatch: true,
          example: { status: 'live', delivery_methods: ['api', 'form'] },
        }),
        success: { status: 200, description: 'The updated publisher.', schema: ref('Publisher') },
        errors: [409],
      }),
    },
    '/v1/publishers/{id}/quality-rules/confirm': {
      parameters: [param('Id')],
      post: operation('/v1/publishers/{id}/quality-rules/confirm', {
        id: 'confirmQualityRules',
        tag: 'Publishers',
        summary: 'Confirm the quality rules (onboarding)',
        description:
          'The publisher (or the operator on its behalf) confirms it has seen the rules its leads are held to. ' +
          'A later change of the rules voids the confirmation. Confirming again changes nothing.',
        scope: 'submit',
        body: fromValidator(confirmRulesValidator, {
          name: 'RulesConfirmation',
          docs: {
            rules_version:
              'The version the publisher read (`onboarding.rules_version`); rules changed since answer 409 `rules_changed`. Without it, the current rules are confirmed.',
          },
          example: { rules_version: 2 },
        }),
        success: { status: 200, description: 'The publisher.', schema: ref('Publisher') },
        errors: [409],
      }),
    },
    '/v1/publishers/{id}/go-live-request': {
      parameters: [param('Id')],
      post: operation('/v1/publishers/{id}/go-live-request', {
        id: 'requestGoLive',
        tag: 'Publishers',
        summary: 'Ask the operator to go live (onboarding)',
        description:
          'Needs a delivery method (409 `delivery_method_missing`) and the confirmation of the current quality rules ' +
          '(409 `rules_not_confirmed`). Asking again, or when live, changes nothing.',
        scope: 'submit',
        success: { status: 200, description: 'The publisher.', schema: ref('Publisher') },
        errors: [409],
      }),
    },
    '/v1/publishers/{id}/invitation': {
      parameters: [param('Id')],
      post: operation('/v1/publishers/{id}/invitation', {
        id: 'resendPublisherInvitation',
        tag: 'Publishers',
        summary: 'Resend a publisher its invitation',
        description:
          "Operator only. A new link, valid for 14 days, is e-mailed to the publisher's contact address in its label's brand, and the earlier one stops working. 409 `invitation_accepted` once the publisher's first user has accepted.",
        scope: 'submit',
        success: {
          status: 200,
          description: 'The new invitation.',
          schema: ref('InvitationResent'),
        },
        errors: [409],
      }),
    },
    '/v1/publishers/{id}/quality-rules': {
      parameters: [param('Id')],
      get: operation('/v1/publishers/{id}/quality-rules', {
        id: 'getQualityRules',
        tag: 'Quality rules',
        summary: "Get a publisher's quality rules",
        description: 'A publisher may read the rules its own leads are held to.',
        scope: 'read',
        success: { status: 200, description: 'The rules document.', schema: ref('QualityRules') },
      }),
      put: operation('/v1/publishers/{id}/quality-rules', {
        id: 'replaceQualityRules',
        tag: 'Quality rules',
        summary: "Replace a publisher's quality rules",
        description:
          'The whole document is replaced; rules left out no longer apply. Operator only.',
        scope: 'submit',
        body: fromValidator(qualityRulesValidator, {
          example: {
            required_fields: ['contact.email', 'contact.phone'],
            postal_code: { required: true, action: 'reject' },
            phone: { action: 'reject' },
            email: { action: 'flag' },
            consent: { required: true, action: 'reject' },
            target_audience: [
              { field: 'attributes.age', op: 'between', value: [18, 75], action: 'reject' },
            ],
            duplicates: {
              window_days: 30,
              keys: ['contact.email', 'contact.phone'],
              action: 'reject',
            },
          },
        }),
        success: {
          status: 200,
          description: 'The stored rules document.',
          schema: ref('QualityRules'),
        },
      }),
    },
    '/v1/publishers/{id}/quality-rules/preview': {
      parameters: [param('Id')],
      post: operation('/v1/publishers/{id}/quality-rules/preview', {
        id: 'previewQualityRules',
        tag: 'Quality rules',
        summary: 'Try a sample lead against quality rules',
        description:
          'Runs the quality rules (the ones given, else the current ones) on a sample lead as intake would, ' +
          "duplicates included (looked up among the publisher's leads in the credential's environment), and answers the outcome " +
          'with its reasons. Nothing is stored: no lead, audit entry, event or idempotency record. ' +
          'The operator may try any rules; a publisher may try its own current rules. ' +
          'Takes the `submit` permission, as a submission does; sandbox credentials may try too.',
        scope: 'submit',
        body: fromValidator(previewQualityRulesValidator, {
          name: 'QualityRulesPreviewRequest',
          docs: {
            rules:
              "The rules to try, e.g. while editing them; the publisher's current rules when left out. Only the operator may give them.",
            lead: 'A sample lead, as POST /v1/leads takes it; `publisher` may be left out (it is the publisher in the path).',
          },
          example: {
            rules: {
              postal_code: { required: true, action: 'reject' },
              target_audience: [
                { field: 'attributes.age', op: 'between', value: [18, 75], action: 'reject' },
              ],
            },
            lead: {
              contact: {
                name: 'Jan Jansen',
                email: 'jan@example.nl',
                phone: '+31612345678',
                postal_code: '1012 AB',
                country: 'NL',
              },
              provenance: { source: 'facebook', campaign: 'spring-solar' },
              consent: {
                given: true,
                text: 'I agree that Acme may contact me about solar panels.',
                timestamp: '2025-01-31T09:29:12Z',
                ip: '198.51.100.23',
              },
              attributes: { age: 17 },
            },
          },
        }),
        success: {
          status: 200,
          description: 'What the rules would decide, and why.',
          schema: ref('QualityRulesPreview'),
        },
      }),
    },
    '/v1/buyers': {
      post: operation('/v1/buyers', {
        id: 'createBuyer',
        tag: 'Buyers',
        summary: 'Create a buyer',
        scope: 'submit',
        body: fromValidator(createBuyerValidator, {
          name: 'BuyerCreate',
          docs: { return_window_hours: returnWindowDocs },
          example: { name: 'Solar Direct', contact_email: 'leads@solar.example' },
        }),
        success: { status: 201, description: 'The buyer.', schema: ref('Buyer') },
      }),
      get: operation(
        '/v1/buyers',
        list(
          'listBuyers',
          'Buyers',
          'List buyers',
          'Buyer',
          undefined,
          queryParameters(listBuyersValidator)
        )
      ),
    },
    '/v1/buyers/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/buyers/{id}', {
        id: 'getBuyer',
        tag: 'Buyers',
        summary: 'Get a buyer',
        scope: 'read',
        success: { status: 200, description: 'The buyer.', schema: ref('Buyer') },
      }),
      patch: operation('/v1/buyers/{id}', {
        id: 'updateBuyer',
        tag: 'Buyers',
        summary: 'Update a buyer',
        description:
          'Rename it, change its contact, or pause it: a paused buyer gets no new matches.',
        scope: 'submit',
        body: fromValidator(updateBuyerValidator, {
          name: 'BuyerUpdate',
          mergePatch: true,
          docs: {
            return_window_hours: returnWindowDocs,
            status: 'A paused buyer gets no new matches; its routing rules wait for it to resume.',
            duplicate_window_days:
              'Never sell this buyer the same consumer twice within this many days (1–365); null lifts it.',
            billing:
              'The operator’s alone: `prepaid` (a balance topped up) or `credit` (a limit the balance may go below zero by), per currency. The sale then never offers the buyer a lead it cannot pay for (unsold reason `insufficient_funds`); `GET /v1/buyers/{id}/funds` shows them.',
          },
          example: { status: 'paused' },
        }),
        success: { status: 200, description: 'The updated buyer.', schema: ref('Buyer') },
      }),
    },
    '/v1/routing-rules': {
      post: operation('/v1/routing-rules', {
        id: 'createRoutingRule',
        tag: 'Routing rules',
        summary: 'Create a routing rule',
        scope: 'submit',
        body: fromValidator(createRoutingRuleValidator, {
          name: 'RoutingRuleCreate',
          docs: ruleDocs,
          example: {
            buyer_id: '0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7c',
            labels: ['acme-leads'],
            publishers: ['0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7d'],
            criteria: [{ field: 'attributes.homeowner', op: 'eq', value: true }],
            price_cents: 2500,
            payout_cents: 1500,
            currency: 'EUR',
            caps: { daily: 100 },
            schedule: {
              timezone: 'Europe/Amsterdam',
              windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:30' }],
            },
            priority: 10,
            weight: 1,
          },
        }),
        success: { status: 201, description: 'The rule.', schema: ref('RoutingRule') },
      }),
      get: operation(
        '/v1/routing-rules',
        list(
          'listRoutingRules',
          'Routing rules',
          'List routing rules',
          'RoutingRule',
          undefined,
          queryParameters(listRoutingRulesValidator, {
            environment: "Only the rules selling this environment's leads.",
          })
        )
      ),
    },
    '/v1/routing-rules/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/routing-rules/{id}', {
        id: 'getRoutingRule',
        tag: 'Routing rules',
        summary: 'Get a routing rule',
        scope: 'read',
        success: { status: 200, description: 'The rule.', schema: ref('RoutingRule') },
      }),
      patch: operation('/v1/routing-rules/{id}', {
        id: 'updateRoutingRule',
        tag: 'Routing rules',
        summary: 'Update a routing rule',
        scope: 'submit',
        body: fromValidator(updateRoutingRuleValidator, {
          name: 'RoutingRuleUpdate',
          mergePatch: true,
          docs: ruleDocs,
          example: { price_cents: 2700, enabled: false },
        }),
        success: { status: 200, description: 'The updated rule.', schema: ref('RoutingRule') },
      }),
      delete: operation('/v1/routing-rules/{id}', {
        id: 'deleteRoutingRule',
        tag: 'Routing rules',
        summary: 'Delete a routing rule',
        scope: 'submit',
        success: { status: 204, description: 'Deleted; no lead is matched by it any more.' },
      }),
    },
  },
}
