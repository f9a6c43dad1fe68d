import { PRIVACY_REQUEST_KINDS } from '#services/privacy/privacy_request_service'
import { RETENTION_FIELDS } from '#services/privacy/retention_policy_service'
import {
  consentWithdrawalValidator,
  privacyRequestValidator,
  retentionValidator,
} from '#validators/privacy'
import { fromValidator } from './from_validator.js'
import { nullable, operation, param, record, ref, type Section } from './helpers.js'

/** Privacy and residency (docs/privacy.md): data-subject requests, retention, the deployment's region. */
const retentionDocs = Object.fromEntries(
  RETENTION_FIELDS.map((field) => [
    field,
    'Days after a lead arrived; null keeps the category until erased on request.',
  ])
)

const schemas = {
  PrivacyRequest: record({
    id: ref('Id'),
    kind: { type: 'string', enum: [...PRIVACY_REQUEST_KINDS] },
    status: { type: 'string', enum: ['pending', 'running', 'completed', 'failed'] },
    created_at: { type: 'string', format: 'date-time' },
    completed_at: nullable({ type: 'string', format: 'date-time' }),
    result_expires_at: {
      ...nullable({ type: 'string', format: 'date-time' }),
      description: 'An access document is removed at this time.',
    },
    result: {
      ...nullable({ type: 'object' }),
      description:
        'Access: `{subject, generated_at, publishers: [{publisher, leads, upload_rows}]}`. Erasure: counts of what was erased, never data.',
    },
    error: nullable({ type: 'string' }),
  }),
  Meta: record({
    version: { type: 'string', examples: ['0.1.0'] },
    region: { type: 'string', examples: ['eu-west-1'] },
    data_residency: { type: 'string' },
  }),
  IpRanges: record({
    webhooks: {
      type: 'array',
      items: { type: 'string', examples: ['203.0.113.10/32'] },
      description: 'Every webhook leaves from one of these addresses.',
    },
  }),
}

export const privacy: Section = {
  tags: [
    {
      name: 'Privacy',
      description:
        'Data-subject access and erasure across every publisher, retention per data category and label; proofs and consent evidence stay verifiable after erasure.',
    },
  ],
  schemas,
  paths: {
    '/v1/meta': {
      get: operation('/v1/meta', {
        id: 'getMeta',
        tag: 'Meta',
        summary: 'Version, region and data residency',
        scope: 'public',
        success: { status: 200, description: 'About this deployment.', schema: ref('Meta') },
      }),
    },
    '/v1/meta/ip-ranges': {
      get: operation('/v1/meta/ip-ranges', {
        id: 'getIpRanges',
        tag: 'Meta',
        summary: 'The addresses webhooks are sent from',
        scope: 'public',
        success: { status: 200, description: 'Egress addresses.', schema: ref('IpRanges') },
      }),
    },
    '/v1/privacy/requests': {
      post: operation('/v1/privacy/requests', {
        id: 'createPrivacyRequest',
        tag: 'Privacy',
        summary: 'File a data-subject access or erasure request',
        description:
          'Runs in the background; poll `GET /v1/privacy/requests/{id}`. Erasure removes the personal data wherever it was copied, destroys the per-lead salts and appends `lead.erased`; lead facts, money and proofs stay.',
        scope: 'submit',
        body: fromValidator(privacyRequestValidator, {
          name: 'PrivacyRequestCreate',
          docs: {
            phone: 'International form (+31…); read in each publisher’s country otherwise.',
          },
          example: { kind: 'access', email: 'jan.jansen@example.nl' },
        }),
        success: { status: 202, description: 'The task.', schema: ref('PrivacyRequest') },
      }),
    },
    '/v1/privacy/requests/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/privacy/requests/{id}', {
        id: 'getPrivacyRequest',
        tag: 'Privacy',
        summary: 'A data-subject request and its result',
        scope: 'read',
        success: { status: 200, description: 'The request.', schema: ref('PrivacyRequest') },
      }),
    },
    '/v1/leads/{id}/consent/withdraw': {
      parameters: [param('Id')],
      post: operation('/v1/leads/{id}/consent/withdraw', {
        id: 'withdrawConsent',
        tag: 'Privacy',
        summary: 'Record that the person withdrew consent',
        description:
          'Appends `consent.revoked` to the lead’s audit trail, stops further routing and integration syncs of the lead, and sends `consent.revoked` to the publisher and to the buyer holding the lead. A second withdrawal answers 409.',
        scope: 'submit',
        body: fromValidator(consentWithdrawalValidator, { example: {} }),
        errors: [409],
        success: {
          status: 200,
          description: 'The withdrawal.',
          schema: record({
            lead_id: ref('Id'),
            status: { type: 'string' },
            consent: record({ revoked_at: { type: 'string', format: 'date-time' } }),
          }),
        },
      }),
    },
    '/v1/labels/{id}/retention': {
      parameters: [param('Id')],
      get: operation('/v1/labels/{id}/retention', {
        id: 'getRetentionPolicy',
        tag: 'Privacy',
        summary: 'A label’s retention periods',
        scope: 'read',
        success: { status: 200, description: 'The periods.', schema: ref('RetentionPolicy') },
      }),
      put: operation('/v1/labels/{id}/retention', {
        id: 'replaceRetentionPolicy',
        tag: 'Privacy',
        summary: 'Replace a label’s retention periods',
        scope: 'submit',
        body: fromValidator(retentionValidator, {
          name: 'RetentionPolicy',
          docs: retentionDocs,
          example: {
            contact_days: 730,
            ip_days: 90,
            attributes_days: 730,
            uploads_days: 30,
            webhook_payload_days: 30,
            access_log_days: 365,
          },
        }),
        success: { status: 200, description: 'The periods.', schema: ref('RetentionPolicy') },
      }),
    },
  },
}
