import { CSV_COLUMNS, EXPORT_FORMAT } from '#services/audit/audit_export_service'
import { PROOF_FORMAT } from '#services/audit/audit_proof_service'
import {
  auditExportValidator,
  auditTrailValidator,
  consistencyValidator,
  proofValidator,
  verifyTrailValidator,
} from '#validators/audit_log'
import { queryParameters } from './from_validator.js'
import { arrayOf, nullable, operation, record, ref, type Schema, type Section } from './helpers.js'

/** The append-only, hash-chained audit trail, its exports and its tamper evidence. */
const withAll = (base: string, extra: Record<string, Schema>) => ({
  allOf: [ref(base), record(extra)],
})
const logIndex = {
  type: 'integer',
  minimum: 0,
  description: 'Position in the signed Merkle tree (leaf index).',
}

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
  Hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256.' },
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
  SealedAuditEntry: withAll('AuditEntry', { log_index: logIndex }),
  LeadTrail: record({ lead_id: ref('Id'), events: arrayOf(ref('AuditEntry')) }),
  SigningKey: record({
    public_key: { type: 'string', description: 'The Ed25519 key that signs checkpoints, base64.' },
    verifier_key: { type: 'string', description: 'The same key as a C2SP note verifier key.' },
  }),
  Checkpoint: record(
    {
      origin: { type: 'string', description: "The log's name in the C2SP tlog-checkpoint note." },
      size: { type: 'integer', minimum: 0 },
      root: ref('Hash'),
      key_id: { type: 'string' },
      signature: { type: 'string', description: 'Ed25519 signature, base64.' },
      note: { type: 'string', description: 'The signed note, as a C2SP note verifier reads it.' },
    },
    { description: 'A signed (origin, size, root) of the log.' }
  ),
  SignedCheckpoint: { allOf: [ref('Checkpoint'), ref('SigningKey')] },
  AuditExport: {
    allOf: [
      ref('SigningKey'),
      record({
        format: { const: EXPORT_FORMAT },
        generated_at: ref('Timestamp'),
        filters: { type: 'object', description: 'The filters the export was made with.' },
        complete: {
          type: 'boolean',
          description:
            'True for an unfiltered export by the operator or an unscoped compliance principal: a verifier can rebuild the signed root from it.',
        },
        checkpoint: nullable(ref('Checkpoint')),
        leads: arrayOf(
          record({
            lead_id: ref('Id'),
            publisher_id: ref('Id'),
            events: arrayOf({
              allOf: [ref('AuditEntry'), record({ log_index: nullable(logIndex) })],
            }),
          })
        ),
        lead_count: { type: 'integer', minimum: 0 },
        event_count: { type: 'integer', minimum: 0 },
      }),
    ],
    description: 'Nested export, streamed: every lead in the filter with its events and hashes.',
  },
  LeadVerification: record({
    lead_id: ref('Id'),
    valid: { type: 'boolean' },
    entries: { type: 'integer', minimum: 0, description: 'Entries checked.' },
    broken_at: {
      ...nullable(
        record({
          lead_seq: { type: 'integer', minimum: 1 },
          reason: { type: 'string', examples: ['hash_mismatch'] },
        })
      ),
      description: 'The first broken entry; null when the trail is intact.',
    },
  }),
  LogFailure: {
    type: 'object',
    required: ['reason', 'detail'],
    properties: {
      reason: { type: 'string', examples: ['checkpoint_root_mismatch'] },
      detail: { type: 'string' },
      log_index: nullable({ type: 'integer' }),
      entry_id: { type: 'string' },
      lead_id: ref('Id'),
      lead_seq: { type: 'integer' },
      checkpoint_size: { type: 'integer' },
    },
  },
  LogVerification: {
    type: 'object',
    required: ['lead_id', 'valid', 'entries', 'broken_at'],
    properties: {
      lead_id: { type: 'null' },
      valid: { type: 'boolean' },
      entries: { type: 'integer', minimum: 0 },
      sealed: { type: 'integer', minimum: 0 },
      unsealed: { type: 'integer', minimum: 0 },
      leads: { type: 'integer', minimum: 0 },
      checkpoints: { type: 'integer', minimum: 0 },
      tree_size: { type: 'integer', minimum: 0 },
      root: nullable(ref('Hash')),
      broken_at: nullable(ref('LogFailure')),
      failures: arrayOf(ref('LogFailure')),
      failure_counts: { type: 'object', additionalProperties: { type: 'integer' } },
      duration_ms: { type: 'integer', minimum: 0 },
    },
    description: 'Every chain, every leaf and every checkpoint of the whole log, recomputed.',
  },
  InclusionProof: record(
    {
      log_index: logIndex,
      leaf_index: logIndex,
      tree_size: { type: 'integer', minimum: 1 },
      hashes: arrayOf(ref('Hash')),
    },
    { description: 'RFC 9162 inclusion proof of one entry in the signed tree.' }
  ),
  ProofBundle: {
    allOf: [
      ref('SigningKey'),
      record({
        format: { const: PROOF_FORMAT },
        lead_id: ref('Id'),
        entries: arrayOf(ref('SealedAuditEntry')),
        proofs: arrayOf(ref('InclusionProof')),
        checkpoint: ref('Checkpoint'),
      }),
    ],
    description:
      'Verifies offline with the shipped, dependency-free verifier (bin/verify_audit.mjs).',
  },
  ConsistencyProof: {
    allOf: [
      ref('SigningKey'),
      record({ from: ref('Checkpoint'), to: ref('Checkpoint'), hashes: arrayOf(ref('Hash')) }),
    ],
    description: 'RFC 9162 consistency proof: the later tree extends the earlier one unchanged.',
  },
}

/** With `lead_id` the route reads that lead's trail; without it, it exports over the filters. */
const leadTrail = queryParameters(auditTrailValidator, { lead_id: "One lead's trail." })
  .filter((parameter) => parameter.name === 'lead_id')
  .map(({ required: _, ...parameter }) => parameter)

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
          "With `lead_id`: that lead's trail. Without: an export over the filters, streamed — `format=csv` gives one row per event " +
          `(columns \`${CSV_COLUMNS.join(', ')}\`), \`format=json\` nests events under their lead.`,
        scope: 'read',
        parameters: [
          ...leadTrail,
          ...queryParameters(auditExportValidator, {
            format: { description: 'Export format.', default: 'json' },
            from: 'Events at or after.',
            to: 'Events before.',
            publisher: 'Publisher slug.',
            label: 'Label slug.',
            buyer: 'Buyer id.',
            environment: 'Live or sandbox leads.',
          }),
        ],
        success: {
          status: 200,
          description: 'The trail, or the export.',
          schema: { oneOf: [ref('LeadTrail'), ref('AuditExport')] },
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        errors: [404, 422],
      }),
    },
    '/v1/audit-logs/verify': {
      get: operation('/v1/audit-logs/verify', {
        id: 'verifyAuditLog',
        tag: 'Audit',
        summary: 'Verify a trail or the whole log',
        description:
          'Recomputes every hash and reports the first broken entry. Without `lead_id` the whole log is verified: chains, leaves and signed checkpoints (the operator, and a compliance officer or key without a scope). A compliance principal reaches only the leads of its scope.',
        scope: 'read',
        parameters: queryParameters(verifyTrailValidator, {
          lead_id: 'The lead whose trail to verify.',
        }),
        success: {
          status: 200,
          description: 'The verdict.',
          schema: { oneOf: [ref('LeadVerification'), ref('LogVerification')] },
        },
        errors: [404, 422],
      }),
    },
    '/v1/audit-logs/proof': {
      get: operation('/v1/audit-logs/proof', {
        id: 'getAuditProof',
        tag: 'Audit',
        summary: "Get a lead's proof bundle",
        description:
          'Its entries, an inclusion proof for each, the signed checkpoint and the public key. A lead whose newest entries are not sealed yet answers 409 `not_sealed` with `retry_after_seconds`.',
        scope: 'read',
        parameters: queryParameters(proofValidator, { lead_id: 'The lead.' }),
        success: { status: 200, description: 'The bundle.', schema: ref('ProofBundle') },
        errors: [404, 409, 422],
      }),
    },
    '/v1/audit-logs/consistency': {
      get: operation('/v1/audit-logs/consistency', {
        id: 'getAuditConsistency',
        tag: 'Audit',
        summary: 'Prove one checkpoint extends another',
        scope: 'read',
        parameters: queryParameters(consistencyValidator, {
          from: 'Size of the earlier checkpoint.',
          to: 'Size of the later checkpoint.',
        }),
        success: { status: 200, description: 'The proof.', schema: ref('ConsistencyProof') },
        errors: [404, 422],
      }),
    },
    '/v1/audit-logs/checkpoints/latest': {
      get: operation('/v1/audit-logs/checkpoints/latest', {
        id: 'getLatestCheckpoint',
        tag: 'Audit',
        summary: 'Get the latest signed checkpoint',
        scope: 'read',
        success: { status: 200, description: 'The checkpoint.', schema: ref('SignedCheckpoint') },
        errors: [404],
      }),
    },
  },
}
