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
import {
  acceptUploadValidator,
  listUploadRowsValidator,
  listUploadsValidator,
  uploadFieldsValidator,
} from '#validators/upload'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'
import { LEAD_FIELDS } from '#services/uploads/upload_columns'
import { ROW_REASON_CODES } from '#services/uploads/upload_row_input'
import { OUTCOMES } from '#services/uploads/upload_types'
import { REASON_CODES } from '#services/quality/types'

const timestamp = { type: 'string', format: 'date-time' }

const shapes: Record<string, Docs> = {
  UploadStatus: {
    '': '`validating` (rows being judged; the report grows) → `validated` (every row judged, nothing stored as a lead) → `accepting` → `accepted`.',
  },
}

const schemas = {
  UploadRowOutcome: {
    type: 'string',
    enum: [...OUTCOMES, 'pending'],
    description: 'What validation decided for the row; `pending` until it has.',
  },
  UploadRowReason: {
    type: 'object',
    required: ['code', 'action', 'message'],
    properties: {
      code: {
        type: 'string',
        enum: [...REASON_CODES, ...ROW_REASON_CODES],
        description:
          "The quality rules' codes, and two of the file's own: `malformed_row` (a CSV line with more or fewer cells than the header, a JSON line that is no object) and `invalid_value` (a value no lead field can take).",
      },
      field: { type: 'string', description: 'The lead field concerned, when there is one.' },
      action: ref('RuleAction'),
      message: { type: 'string' },
    },
  },
  UploadMapping: {
    type: 'object',
    additionalProperties: nullable({ type: 'string' }),
    description: `Column name → lead field (${LEAD_FIELDS.join(', ')}, or \`attributes.<name>\`); null leaves the column out.`,
    examples: [{ 'E-mail address': 'contact.email', 'Mobile': 'contact.phone', 'Notes': null }],
  },
  UnmappedColumn: record({ column: { type: 'string' }, reason: { type: 'string' } }),
  Upload: record({
    id: { type: 'string', format: 'uuid' },
    publisher: { type: 'string', description: "The publisher's slug." },
    environment: { type: 'string', enum: ['live', 'sandbox'] },
    status: ref('UploadStatus'),
    format: { type: 'string', enum: ['csv', 'jsonl'] },
    filename: nullable({ type: 'string' }),
    encoding: { type: 'string', enum: ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] },
    delimiter: nullable({ type: 'string', description: 'CSV only.' }),
    bytes: { type: 'integer' },
    rows: { type: 'integer', description: 'Data rows in the file (the header is not one).' },
    counts: record({
      accepted: { type: 'integer' },
      flagged: { type: 'integer' },
      rejected: { type: 'integer' },
    }),
    progress: record({
      step: { type: 'string', enum: ['validate', 'accept'] },
      done: { type: 'integer' },
      total: { type: 'integer' },
      percent: { type: 'integer', minimum: 0, maximum: 100 },
    }),
    include_flagged: { type: 'boolean' },
    leads_created: { type: 'integer' },
    columns: arrayOf({ type: 'string' }, { description: 'The header, or the keys of JSON Lines.' }),
    mapping: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'The mapping used: each column that fills a lead field, and the field.',
    },
    unmapped_columns: arrayOf(ref('UnmappedColumn')),
    requested_mapping: nullable(ref('UploadMapping')),
    created_at: timestamp,
    validated_at: nullable(timestamp),
    accepted_at: nullable(timestamp),
  }),
  UploadRowResult: record({
    row: { type: 'integer', description: '1 for the first data row.' },
    outcome: ref('UploadRowOutcome'),
    reasons: arrayOf(ref('UploadRowReason')),
    lead_id: nullable({ type: 'string', format: 'uuid' }),
    lead_status: nullable({
      type: 'string',
      description: 'What intake decided for the lead the row became.',
    }),
  }),
  UploadPage: page('Upload'),
  UploadRowResultPage: page('UploadRowResult'),
}

export const uploads: Section = {
  tags: [
    {
      name: 'Uploads',
      description:
        'Leads in bulk from a CSV or JSON Lines file: validate every row first (nothing is stored as a lead), read the report, then accept.',
    },
  ],
  schemas,
  shapes,
  paths: {
    '/v1/uploads': {
      post: operation('/v1/uploads', {
        id: 'createUpload',
        tag: 'Uploads',
        summary: 'Upload a file of leads',
        description:
          'A publisher key (or the operator, naming `publisher`) with `submit`, for a publisher with `upload` among its `delivery_methods` (else 403 `delivery_method_not_enabled`). ' +
          'The file is read as it arrives and its rows stored; then every row is validated in the background (GET the upload for progress). ' +
          'The size and row limits answer 413 `upload_too_large` and 422 `too_many_rows`; an unreadable file, a mapping that does not fit it, or a file without rows answer 422. A refused upload stores nothing.',
        scope: 'submit',
        body: fromValidator(uploadFieldsValidator, {
          name: 'UploadSubmission',
          mediaTypes: ['multipart/form-data'],
          docs: {
            '': { checkedByService: { required: ['file'] } },
            'file':
              'The CSV (any of `,` `;` tab `|` as delimiter, decided on the header line; UTF-8 with or without BOM, UTF-16 with BOM, else Windows-1252) or JSON Lines file (`.jsonl`/`.ndjson`, or content starting with `{`): one lead per line, flat or nested like POST /v1/leads.',
            'mapping':
              'JSON text of an `UploadMapping`, over the default names (`email`, `e-mail`, `phone_number`, `zip`, `consent_text`, `consent_timestamp`, `consent_ip`, `consent_given`, `utm_source`, …; other columns whose name can be an attribute name become attributes).',
            'publisher':
              "The operator names the publisher (its slug) the upload is for, before the file; a publisher's key uploads for its own.",
          },
        }),
        success: { status: 202, description: 'Received; validation runs.', schema: ref('Upload') },
      }),
      get: operation(
        '/v1/uploads',
        list(
          'listUploads',
          'Uploads',
          'List uploads',
          'Upload',
          "Newest first. A publisher sees its own uploads, the operator every publisher's; both only those of the key's environment.",
          queryParameters(listUploadsValidator, {
            status: 'Only uploads in this status.',
            publisher_id: "Operator: one publisher's uploads.",
          })
        )
      ),
    },
    '/v1/uploads/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/uploads/{id}', {
        id: 'getUpload',
        tag: 'Uploads',
        summary: 'Get an upload',
        description:
          'Status, counts by outcome, progress of the current step, and the columns with the mapping used (for a mapping step).',
        scope: 'read',
        success: { status: 200, description: 'The upload.', schema: ref('Upload') },
      }),
    },
    '/v1/uploads/{id}/rows': {
      parameters: [param('Id')],
      get: operation('/v1/uploads/{id}/rows', {
        id: 'listUploadRows',
        tag: 'Uploads',
        summary: "An upload's rows and their outcomes",
        description:
          "In file order, as validation judges them. With `Accept: text/csv` the whole report downloads as CSV: row, outcome, reasons, lead, then the cells as read (a cell starting with `=`, `+`, `-`, `@` is written with a leading `'`).",
        scope: 'read',
        parameters: queryParameters(listUploadRowsValidator),
        success: {
          status: 200,
          description: 'One page (JSON), or the report (CSV).',
          schema: ref('UploadRowResultPage'),
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        errors: [422],
      }),
    },
    '/v1/uploads/{id}/accept': {
      parameters: [param('Id')],
      post: operation('/v1/uploads/{id}/accept', {
        id: 'acceptUpload',
        tag: 'Uploads',
        summary: 'Accept an upload',
        description:
          'The valid rows (and the flagged ones with `include_flagged`) become leads in the background, channel `upload`, each with its consent evidence and audit trail; live accepted leads are routed. ' +
          'Idempotent: rows that are leads already are skipped, so accepting again creates nothing new. 409 `upload_not_validated` while validation runs.',
        scope: 'submit',
        body: fromValidator(acceptUploadValidator, {
          name: 'UploadAcceptance',
          docs: {
            include_flagged: {
              default: false,
              description:
                'Also turn flagged rows into leads (they are held for review like any flagged lead).',
            },
          },
          example: { include_flagged: false },
        }),
        success: { status: 202, description: 'Acceptance runs.', schema: ref('Upload') },
        errors: [409],
      }),
    },
  },
}
