import { arrayOf, nullable, operation, record, ref, type Section } from './helpers.js'

/** The append-only, hash-chained audit trail, its exports and its tamper evidence. */
const hash = { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256.' }

const schemas = {
  AuditEvent: {
    type: 'string',
    enum: [
      'lead.received',
      'consent.captured',
      'lead.validated',
      'lead.accepted',
      'lead.rejected',
      'lead.flagged',
      'lead.delivered',
      'lead.returned',
      'dispute.opened',
      'dispute.responded',
      'dispute.decided',
      'payout.processed',
      'consent.revoked',
      'lead.erased',
    ],
  },
  Hash: hash,
  AuditEntry: record(
    {
      event: ref('AuditEvent'),
      ts: {
        type: 'string',
        format: 'date-time',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
        description: 'UTC, millisecond precision.',
      },
      actor: {
        type: 'string',
        description:
          'Typed actor: `operator:<user>`, `publisher:<user>`, `api_key:<id>`, `rule:<name>`, `form:<id>`, `system:<component>`, `agent:<id>`…',
      },
      lead_seq: { type: 'integer', minimum: 1 },
      status_from: { ...nullable({ type: 'string' }), description: 'Null for the first entry.' },
      status_to: { type: 'string' },
      prev_hash: {
        ...ref('Hash'),
        description: "The lead's previous entry hash; 64 zeros for the first.",
      },
      hash: {
        ...ref('Hash'),
        description:
          'sha256("leadgate-audit/v1\\n" + RFC 8785 JSON of {event, ts, actor, lead_id, lead_seq, status_from, status_to, prev_hash}).',
      },
    },
    { description: 'Fixed structure, no free text, no personal data.' }
  ),
  LeadTrail: record({ lead_id: ref('Id'), events: arrayOf(ref('AuditEntry')) }),
  AuditExport: record(
    { leads: arrayOf(ref('LeadTrail')) },
    { description: 'Nested export: every lead in the filter with its events and hashes, streamed.' }
  ),
  AuditVerification: record({
    lead_id: { ...nullable(ref('Id')), description: 'Null when the whole log was verified.' },
    valid: { type: 'boolean' },
    entries: { type: 'integer', minimum: 0, description: 'Entries checked.' },
    broken_at: {
      ...nullable({ type: 'integer' }),
      description:
        'The `lead_seq` (or, for the whole log, `log_index`) of the first broken entry; null when valid.',
    },
  }),
  InclusionProof: record(
    {
      leaf_index: { type: 'integer', minimum: 0 },
      tree_size: { type: 'integer', minimum: 1 },
      hashes: arrayOf(ref('Hash')),
    },
    { description: 'RFC 9162 inclusion proof of one entry in the signed tree.' }
  ),
  Checkpoint: record({
    origin: { type: 'string', description: "The log's name in the C2SP tlog-checkpoint note." },
    size: { type: 'integer', minimum: 0 },
    root: ref('Hash'),
    signature: { type: 'string', description: 'Ed25519 signature, base64.' },
    key_id: { type: 'string' },
  }),
  ProofBundle: record(
    {
      lead_id: ref('Id'),
      entries: arrayOf({
        allOf: [ref('AuditEntry'), record({ log_index: { type: 'integer', minimum: 0 } })],
      }),
      proofs: arrayOf(ref('InclusionProof')),
      checkpoint: ref('Checkpoint'),
      public_key: {
        type: 'string',
        description: 'The Ed25519 public key that signs checkpoints, base64.',
      },
    },
    { description: 'Verifies offline with the shipped, dependency-free verifier.' }
  ),
}

const leadId = (description: string) => ({
  name: 'lead_id',
  in: 'query',
  description,
  schema: ref('Id'),
})
/** Parameters API.md specifies that the served route does not take yet. */
const planned = { 'x-leadgate-status': 'planned' }
const filters = [
  {
    name: 'from',
    in: 'query',
    description: 'Events at or after.',
    schema: ref('Timestamp'),
    ...planned,
  },
  { name: 'to', in: 'query', description: 'Events before.', schema: ref('Timestamp'), ...planned },
  {
    name: 'publisher',
    in: 'query',
    description: 'Publisher slug.',
    schema: ref('Slug'),
    ...planned,
  },
  { name: 'label', in: 'query', description: 'Label slug.', schema: ref('Slug'), ...planned },
  { name: 'buyer', in: 'query', description: 'Buyer id.', schema: ref('Id'), ...planned },
]

export const audit: Section = {
  tags: [
    {
      name: 'Audit',
      description:
        'Every step of every lead, append-only and hash-chained per lead, sealed into a signed Merkle tree. Exportable as JSON or CSV.',
    },
  ],
  schemas,
  paths: {
    '/v1/audit-logs': {
      get: operation('/v1/audit-logs', {
        id: 'exportAuditLogs',
        tag: 'Audit',
        summary: 'Read or export the audit trail',
        description:
          "With `lead_id`: that lead's trail (served now). Without: an export over the filters, streamed — `format=csv` gives one row per event " +
          '(columns `lead_id, lead_seq, event, ts, actor, status_from, status_to, prev_hash, hash`), `format=json` nests events under their lead. ' +
          'The exports (`format=csv` and the filters) are planned: until then `lead_id` is required.',
        scope: 'read',
        parameters: [
          leadId("One lead's trail."),
          {
            name: 'format',
            in: 'query',
            description: '`csv` is planned.',
            schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
          },
          ...filters,
        ],
        success: {
          status: 200,
          description: 'The trail or the export.',
          schema: { oneOf: [ref('LeadTrail'), ref('AuditExport')] },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        errors: [422],
      }),
    },
    '/v1/audit-logs/verify': {
      get: operation('/v1/audit-logs/verify', {
        id: 'verifyAuditLog',
        tag: 'Audit',
        summary: 'Verify a trail or the whole log',
        description:
          'Recomputes every hash and reports the first broken entry. Without `lead_id` the whole log is verified (operator; planned — until then `lead_id` is required).',
        scope: 'read',
        parameters: [leadId('The lead whose trail to verify.')],
        success: { status: 200, description: 'The verdict.', schema: ref('AuditVerification') },
        errors: [422],
      }),
    },
    '/v1/audit-logs/proof': {
      get: operation('/v1/audit-logs/proof', {
        id: 'getAuditProof',
        tag: 'Audit',
        summary: "Get a lead's proof bundle",
        description:
          'Its entries, an inclusion proof for each, the signed checkpoint and the public key.',
        scope: 'read',
        parameters: [{ ...leadId('The lead.'), required: true }],
        success: { status: 200, description: 'The bundle.', schema: ref('ProofBundle') },
        errors: [404, 422],
      }),
    },
    '/v1/audit-logs/checkpoints/latest': {
      get: operation('/v1/audit-logs/checkpoints/latest', {
        id: 'getLatestCheckpoint',
        tag: 'Audit',
        summary: 'Get the latest signed checkpoint',
        scope: 'read',
        success: { status: 200, description: 'The checkpoint.', schema: ref('Checkpoint') },
      }),
    },
  },
}
