import { pagination } from '#validators/helpers'
import { type Docs, schemaOf } from './from_validator.js'
import { arrayOf, ref, type Schema } from './helpers.js'

/**
 * What every section shares: credentials, problem details, the standard error
 * answers, pagination and the building blocks of request bodies.
 */
export const securitySchemes = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'lg_live_… or lg_test_…',
    description:
      'An API key: `Authorization: Bearer lg_live_…` (live) or `lg_test_…` (sandbox). Keys are shown once, scoped to ' +
      '`read`, `submit` or both, bound to the operator, one publisher or one buyer, and optionally to an IP allowlist. ' +
      'An OAuth access token (`lg_at_…`) is sent the same way.',
  },
  oauth2: {
    type: 'oauth2',
    description:
      'OAuth 2.0 client credentials (RFC 6749 §4.4). The token is sent as `Authorization: Bearer <access_token>`.',
    flows: {
      clientCredentials: {
        tokenUrl: '/v1/oauth/token',
        scopes: {
          read: 'Read resources visible to the client',
          submit: 'Create and change resources, submit leads',
        },
      },
    },
  },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'OAuth client authentication at the token endpoint: `client_id:client_secret` (or both in the form body).',
  },
}

const problemExample = (
  status: number,
  code: string,
  title: string,
  detail: string,
  extra: Schema = {}
) => ({
  type: `https://leadgate.dev/problems/${code.replaceAll('_', '-')}`,
  title,
  status,
  code,
  detail,
  instance: '/v1/publishers',
  request_id: 'c0a8012e-8f6b-4a36-9b0e-5a1d2f3e4b5c',
  ...extra,
})

/** The validators' shared shapes (`documentedAs` in app/validators/helpers.ts), in words. */
export const shapes: Record<string, Docs> = {
  Id: {
    '': {
      description: 'A UUIDv7 assigned by Leadgate.',
      examples: ['0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7c'],
    },
  },
  Slug: {
    '': { description: 'Lower-case letters, digits and single hyphens.', examples: ['acme-media'] },
  },
  Name: { '': { examples: ['Acme Media'] } },
  Email: { '': { examples: ['ops@acme.example'] } },
  CountryCode: { '': { description: 'ISO 3166-1 alpha-2, e.g. `NL`.', examples: ['NL'] } },
  Currency: { '': { description: 'ISO 4217, e.g. `EUR`.', examples: ['EUR'] } },
  Cents: { '': { description: 'An amount in integer cents.', examples: [1250] } },
  Permissions: { '': { examples: [['read', 'submit']] } },
  Environment: { '': '`sandbox` credentials never touch live data.' },
  Cidr: {
    '': { description: 'An IPv4 or IPv6 address or CIDR block.', examples: ['203.0.113.0/24'] },
  },
  TimestampInput: {
    '': {
      description: 'An ISO 8601 moment with its offset, between 0001-01-01 and 9999-12-31 (UTC).',
      examples: ['2026-11-22T09:00:00Z'],
    },
  },
  PeriodBound: {
    '': {
      description:
        'A date (midnight UTC) or an ISO 8601 moment with its offset, between 0001-01-01 and 9999-12-31 (UTC).',
      examples: ['2026-01-01'],
    },
  },
}

export const schemas: Record<string, Schema> = {
  Timestamp: {
    type: 'string',
    format: 'date-time',
    description: 'ISO 8601, UTC.',
    examples: ['2025-01-31T09:30:00.000Z'],
  },
  FieldError: {
    type: 'object',
    required: ['field', 'code', 'message'],
    properties: {
      field: {
        type: 'string',
        description: 'Dotted path of the offending field, e.g. `contact.email`.',
      },
      code: {
        type: 'string',
        description:
          'Stable machine-readable reason, e.g. `required`, `unknown_field`, `maxLength`.',
      },
      message: { type: 'string' },
    },
  },
  Problem: {
    type: 'object',
    description:
      'RFC 9457 problem details, sent as `application/problem+json`. Branch on `code`, not on `title` or `detail`.',
    required: ['type', 'title', 'status', 'code', 'request_id'],
    properties: {
      type: { type: 'string', format: 'uri', description: 'A URI naming the problem type.' },
      title: { type: 'string', description: 'Short human-readable summary of the problem type.' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      code: {
        type: 'string',
        description: 'Stable machine-readable code, e.g. `validation_failed`, `not_found`.',
      },
      detail: { type: 'string', description: 'What went wrong with this request.' },
      instance: { type: 'string', format: 'uri-reference', description: 'The request path.' },
      request_id: { type: 'string', description: 'Quote this when you contact support.' },
      errors: {
        ...arrayOf(ref('FieldError')),
        description: 'One entry per invalid field (422 only).',
      },
      field: {
        type: 'string',
        description:
          'The request field a refusal is about, e.g. `permissions` for `permission_escalation`.',
      },
    },
  },
}

export const parameters = {
  Id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The resource id.',
    schema: ref('Id'),
  },
  Limit: {
    name: 'limit',
    in: 'query',
    description: 'Page size.',
    schema: schemaOf(pagination.limit, { '': { default: 50 } }),
  },
  Cursor: {
    name: 'cursor',
    in: 'query',
    description: 'The `next_cursor` of the previous page.',
    schema: schemaOf(pagination.cursor),
  },
  DestinationId: {
    name: 'destination_id',
    in: 'path',
    required: true,
    description: 'The destination id.',
    schema: ref('Id'),
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Any unique string (a UUID is ideal). Repeating a request with the same key returns the first response instead of submitting twice.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  PreferWait: {
    name: 'Prefer',
    in: 'header',
    description:
      'RFC 7240: `wait=N` answers once the lead’s sale is decided, or after N seconds (1 to 30; more is held to 30). ' +
      'The answer’s `sale` then says `sold` (with your payout) or `unsold`, or `pending` when the wait ran out. Only an accepted lead has a sale to wait for.',
    schema: { type: 'string', examples: ['wait=10'] },
  },
}

const integerHeader = (description: string) => ({
  description,
  schema: { type: 'integer', minimum: 0 },
})

export const headers = {
  'RateLimit-Limit': integerHeader('Requests allowed per window for this credential.'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
  'Retry-After': integerHeader('Seconds to wait before retrying.'),
  'Allow': {
    description: 'The methods this path accepts.',
    schema: { type: 'string', examples: ['GET, POST'] },
  },
}

function problemResponse(
  description: string,
  example: Schema,
  extraHeaders: Record<string, unknown> = {}
) {
  return {
    description,
    ...(Object.keys(extraHeaders).length ? { headers: extraHeaders } : {}),
    content: { 'application/problem+json': { schema: ref('Problem'), example } },
  }
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` })

export const responses = {
  BadRequest: problemResponse(
    'The body is not valid JSON or not a JSON object, a write carries a query string (`query_not_allowed`: a write reads its body alone), or the request is otherwise malformed.',
    problemExample(400, 'malformed_json', 'Bad request', 'The request body is not valid JSON.')
  ),
  Unauthorized: problemResponse(
    'No credential, or an unknown, expired or revoked one.',
    problemExample(401, 'credentials_revoked', 'Unauthorized', 'This API key has been revoked.')
  ),
  Forbidden: problemResponse(
    'The credential is valid but lacks the permission, environment, role or IP address this action needs, or it used a filter on what it may not see (`filter_not_allowed`).',
    problemExample(
      403,
      'permission_missing',
      'Forbidden',
      'This credential lacks the "submit" permission.'
    )
  ),
  NotFound: problemResponse(
    "No such resource visible to the caller. Another owner's resource answers the same way, so nothing leaks about what exists.",
    problemExample(404, 'not_found', 'Not found', 'No publisher with this id is visible to you.')
  ),
  MethodNotAllowed: problemResponse(
    'The path exists but not with this method; `Allow` lists the methods it takes.',
    problemExample(
      405,
      'method_not_allowed',
      'Method not allowed',
      'PUT is not allowed here; use GET, POST.'
    ),
    { Allow: header('Allow') }
  ),
  Conflict: problemResponse(
    'The request conflicts with the current state: a slug or e-mail that is taken, or audit entries not sealed yet.',
    problemExample(
      409,
      'slug_taken',
      'Conflict',
      'A publisher with slug "acme-media" already exists.'
    )
  ),
  PayloadTooLarge: problemResponse(
    'The body is larger than this API accepts.',
    problemExample(
      413,
      'payload_too_large',
      'Payload too large',
      'The request body is larger than this API accepts.'
    )
  ),
  UnsupportedMediaType: problemResponse(
    'The body is not sent as `application/json` (or `application/merge-patch+json` for PATCH); a multipart body (files) is refused on every route, before it is read.',
    problemExample(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      'Send the body as application/json or application/merge-patch+json.'
    )
  ),
  UnprocessableContent: problemResponse(
    'One or more fields are invalid: missing, of the wrong type, too long, unknown, or holding control characters. `errors` lists each one.',
    problemExample(
      422,
      'validation_failed',
      'Unprocessable content',
      'The request has invalid fields.',
      {
        errors: [{ field: 'slug', code: 'regex', message: 'The slug field format is invalid' }],
      }
    )
  ),
  ServiceUnavailable: problemResponse(
    'The database connection was lost before the change was confirmed, so nothing was stored (`database_unavailable`), or the server is at capacity (`overloaded`). Retry after `Retry-After` seconds; with the same `Idempotency-Key` a retried lead is never stored twice.',
    problemExample(
      503,
      'database_unavailable',
      'Service unavailable',
      'The database connection was lost before the change was confirmed, so it was not stored. Retry in a few seconds; with the same Idempotency-Key a retry never stores a lead twice.'
    ),
    { 'Retry-After': header('Retry-After') }
  ),
  TooManyRequests: problemResponse(
    'The credential spent its request budget; retry after `Retry-After` seconds.',
    problemExample(
      429,
      'rate_limited',
      'Too many requests',
      'Rate limit of 600 requests per 1 minute reached; retry in 12 s.'
    ),
    {
      'RateLimit-Limit': header('RateLimit-Limit'),
      'RateLimit-Remaining': header('RateLimit-Remaining'),
      'RateLimit-Reset': header('RateLimit-Reset'),
      'Retry-After': header('Retry-After'),
    }
  ),
}
