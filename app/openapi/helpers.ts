/**
 * Small builders for the OpenAPI document, so every operation gets the same
 * security, error responses and rate-limit headers without repeating them.
 */
export type Schema = { [key: string]: unknown }

/** Words and examples for one field: a description, or these keywords. Never a constraint. */
export type FieldDocs =
  | string
  | {
      description?: string
      examples?: unknown[]
      default?: unknown
      writeOnly?: true
      /** A rule the service checks rather than the validator, so no validator's schema holds it. */
      checkedByService?: Schema
    }

/**
 * By property path: `''` is the schema itself, `a.b` property `b` of `a` (through arrays and
 * null), `a[]` the items of array `a`.
 */
export type Docs = Record<string, FieldDocs>

export type PathItem = { [key: string]: unknown }
export type Section = {
  tags: { name: string; description: string }[]
  paths: Record<string, PathItem>
  schemas: Record<string, Schema>
  /** OpenAPI 3.1 `webhooks`: requests Leadgate sends. */
  webhooks?: Record<string, PathItem>
  /** Words for the shapes its validators name (`documentedAs`), which become components. */
  shapes?: Record<string, Docs>
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
export const param = (name: string) => ({ $ref: `#/components/parameters/${name}` })
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

/** A value that may be null: `type: [..., "null"]` for plain types, `oneOf` around a reference. */
export function nullable(schema: Schema): Schema {
  if (typeof schema.type !== 'string') return { oneOf: [schema, { type: 'null' }] }
  const withNull: Schema = { ...schema, type: [schema.type, 'null'] }
  if (Array.isArray(schema.enum)) withNull.enum = [...schema.enum, null]
  return withNull
}
export const arrayOf = (items: Schema, extra: Schema = {}): Schema => ({
  type: 'array',
  items,
  ...extra,
})

/** A response object: every property is always present (null when empty). */
export function record(properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { type: 'object', properties, required: Object.keys(properties), ...extra }
}

/** The `{data, next_cursor}` envelope of every list. */
export function page(itemSchema: string): Schema {
  return record({
    data: arrayOf(ref(itemSchema)),
    next_cursor: {
      ...nullable({ type: 'string' }),
      description: 'Pass as `cursor` to get the next page; null on the last page.',
    },
  })
}

/** A paginated list read with `?limit=&cursor=` and the filters of its validator (queryParameters). */
export function list(
  id: string,
  tag: string,
  summary: string,
  item: string,
  description: string | undefined,
  parameters: unknown[]
): OperationSpec {
  return {
    id,
    tag,
    summary,
    description,
    scope: 'read',
    parameters,
    success: { status: 200, description: 'One page.', schema: ref(`${item}Page`) },
    // A limit out of range, a cursor not from a previous page, or a malformed filter.
    errors: [422],
  }
}

const ERROR_RESPONSES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
}

export type Body = {
  schema: Schema
  example?: unknown
  /** Also accepted as application/merge-patch+json (PATCH). */
  mergePatch?: boolean
  /** Media types other than JSON, e.g. the OAuth token form. */
  mediaTypes?: string[]
}

type Success = {
  status: number
  description: string
  schema?: Schema
  /** Extra media types beside application/json, e.g. text/csv. */
  content?: Record<string, unknown>
  headers?: Record<string, unknown>
}

export type OperationSpec = {
  id: string
  tag: string
  summary: string
  description?: string
  /** The permission a credential needs; `public` for routes without credentials. */
  scope: 'read' | 'submit' | 'public' | 'client'
  parameters?: unknown[]
  body?: Body
  success: Success
  /** Status codes beyond the ones every operation of this kind can answer. */
  errors?: number[]
  /** Responses that replace a standard one, e.g. a 422 that also carries a lead. */
  overrides?: Record<string, unknown>
}

/**
 * One operation with the answers every route of its kind can give: 400 (a
 * query string on a write), 415 (a multipart body, which no route takes) and
 * 503 (the database went away) always; 401, 403 and 429 once authenticated;
 * 413 and 422 once it takes a body; 404 once the path names a resource.
 */
export function operation(path: string, spec: OperationSpec) {
  const authenticated = spec.scope === 'read' || spec.scope === 'submit'
  const codes = new Set<number>([400, 415, 503, ...(spec.errors ?? [])])
  if (authenticated) [401, 403, 429].forEach((code) => codes.add(code))
  if (spec.body) [400, 413, 415, 422].forEach((code) => codes.add(code))
  if (path.includes('{')) codes.add(404)

  const responses: Record<string, unknown> = {
    [String(spec.success.status)]: successResponse(spec.success, authenticated),
  }
  for (const code of [...codes].sort((a, b) => a - b)) {
    responses[String(code)] = responseRef(ERROR_RESPONSES[code])
  }
  Object.assign(responses, spec.overrides ?? {})

  return {
    operationId: spec.id,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.parameters?.length ? { parameters: spec.parameters } : {}),
    ...(spec.body ? { requestBody: requestBody(spec.body) } : {}),
    responses,
    security: securityFor(spec.scope),
  }
}

function securityFor(scope: OperationSpec['scope']) {
  if (scope === 'public') return []
  if (scope === 'client') return [{ clientBasic: [] }, {}]
  return [{ apiKey: [] }, { oauth2: [scope] }]
}

function requestBody(body: Body) {
  const types = body.mediaTypes ?? [
    'application/json',
    ...(body.mergePatch ? ['application/merge-patch+json'] : []),
  ]
  const media = {
    schema: body.schema,
    ...(body.example === undefined ? {} : { example: body.example }),
  }
  return { required: true, content: Object.fromEntries(types.map((type) => [type, media])) }
}

function successResponse(success: Success, authenticated: boolean) {
  const headers = { ...(authenticated ? RATE_LIMIT_HEADERS : {}), ...(success.headers ?? {}) }
  const content = {
    ...(success.schema ? { 'application/json': { schema: success.schema } } : {}),
    ...(success.content ?? {}),
  }
  return {
    description: success.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  }
}
