/**
 * The vocabulary of an `http` destination: how Leadgate posts a lead into a
 * buyer's own system (API.md, "Selling"; docs/selling.md). The validator
 * (app/validators/destination.ts) builds its body from these names; the
 * transport (buyer_http.ts) sends by them. Secrets travel beside the config,
 * never in it: `separateSecrets` splits what the API receives.
 */

export const HTTP_METHODS = ['POST', 'PUT', 'GET'] as const
export const CONTENT_TYPES = ['json', 'form', 'xml'] as const
export const AUTH_TYPES = ['none', 'basic', 'bearer', 'header', 'query', 'oauth2'] as const
/** How a buyer writes money: integer cents, or decimal currency units (12.50). */
export const MONEY_UNITS = ['cents', 'currency'] as const
export const RULE_NAMES = ['duplicate', 'rejected', 'accepted'] as const

export type HttpMethod = (typeof HTTP_METHODS)[number]
export type ContentType = (typeof CONTENT_TYPES)[number]
export type AuthType = (typeof AUTH_TYPES)[number]
export type MoneyUnit = (typeof MONEY_UNITS)[number]
export type RuleName = (typeof RULE_NAMES)[number]

/** Bounds on what a destination may ask for, and on what an answer may cost. */
export const LIMITS = {
  templateChars: 20_000,
  headerCount: 20,
  headerNameChars: 100,
  headerValueChars: 2_000,
  pathChars: 500,
  patternChars: 500,
  equalsChars: 500,
  statusCodes: 20,
  timeoutMs: { default: 10_000, min: 100, max: 30_000 },
  pingTimeoutMs: { default: 500, min: 50, max: 5_000 },
  connectTimeoutMs: 5_000,
  /** A rendered body (or query) longer than this is not sent. */
  renderedBytes: 256 * 1024,
  /** What is read of a buyer's answer; a longer one is `answer_too_large`. */
  answerBytes: 256 * 1024,
  /** What is kept of an answer to show and store (the `sale_attempts` excerpt). */
  excerptBytes: 20 * 1024,
  /** A `matches` over the whole body reads at most this much of it. */
  regexInputChars: 64 * 1024,
  /** A price or bid above this is a mistake, not a price. */
  maxCents: 10_000_000,
  reasonChars: 500,
  buyerLeadIdChars: 200,
  bidIdChars: 200,
  /** A bid's expiry is believed up to a day. */
  maxExpiresInSeconds: 86_400,
} as const

/** One way to recognise an answer (docs/selling.md, "Response rules"). */
export type ResponseRule = {
  /** The statuses this rule takes; absent: any 2xx. */
  status?: number[]
  /** A JSON path (`$.result`) or an XPath (`/response/status`) into the answer. */
  path?: string
  equals?: string | number | boolean
  /** A regular expression (RE2 syntax) over the value at `path`, or the whole body. */
  matches?: string
}

export type ResponseRules = {
  accepted: ResponseRule
  rejected?: ResponseRule
  duplicate?: ResponseRule
  reason_path?: string
  buyer_lead_id_path?: string
  price_path?: string
  price_unit?: MoneyUnit
}

export type PingConfig = {
  url: string
  template: string
  bid_path: string
  bid_id_path: string
  expires_in_path?: string
  timeout_ms?: number
  bid_unit?: MoneyUnit
}

/** Auth as stored: the secret of each kind is in `DestinationSecrets`. */
export type StoredAuth =
  | { type: 'none' }
  | { type: 'basic'; username: string }
  | { type: 'bearer' }
  | { type: 'header'; name: string }
  | { type: 'query'; name: string }
  | { type: 'oauth2'; token_url: string; client_id: string; scope?: string; audience?: string }

/** The secret field each auth type carries in the API body. */
export const SECRET_FIELD = {
  basic: 'password',
  bearer: 'token',
  header: 'value',
  query: 'value',
  oauth2: 'client_secret',
} as const

export type DestinationSecrets = {
  password?: string
  token?: string
  value?: string
  client_secret?: string
}

/** Auth as the API receives it: the stored part and its secret together. */
export type AuthInput = StoredAuth & DestinationSecrets

type HttpConfigOf<Auth> = {
  method: HttpMethod
  url: string
  content_type: ContentType
  template: string
  headers?: Record<string, string>
  auth?: Auth
  timeout_ms?: number
  response: ResponseRules
  ping?: PingConfig
}

/** An `http` destination as stored (no secrets). */
export type HttpDestinationConfig = HttpConfigOf<StoredAuth>
/** An `http` destination as the API receives it. */
export type HttpDestinationInput = HttpConfigOf<AuthInput>

/**
 * The config to store and the secrets to seal. Only the secret of the auth
 * type is kept; on an update a secret left out means "unchanged", which the
 * caller merges.
 */
export function separateSecrets(input: HttpDestinationInput): {
  http: HttpDestinationConfig
  secrets: DestinationSecrets
} {
  if (!input.auth) return { http: input as HttpDestinationConfig, secrets: {} }
  const { password, token, value, client_secret: clientSecret, ...auth } = input.auth
  const given: DestinationSecrets = { password, token, value, client_secret: clientSecret }
  const field = auth.type === 'none' ? null : SECRET_FIELD[auth.type]
  const secrets: DestinationSecrets =
    field && given[field] !== undefined ? { [field]: given[field] } : {}
  return { http: { ...input, auth: auth as StoredAuth }, secrets }
}

export const timeoutOf = (config: HttpDestinationConfig) =>
  config.timeout_ms ?? LIMITS.timeoutMs.default

export const pingTimeoutOf = (ping: PingConfig) => ping.timeout_ms ?? LIMITS.pingTimeoutMs.default

/** A GET carries its template as the query string, so it is written and escaped as a form. */
export const bodyEscapingOf = (config: HttpDestinationConfig): ContentType =>
  config.method === 'GET' ? 'form' : config.content_type

/** What no header line, record or screen should carry from a lead or an answer. */
/* eslint-disable-next-line no-control-regex */
export const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]+/g

export const MEDIA_TYPES: Record<ContentType, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'application/xml',
}
