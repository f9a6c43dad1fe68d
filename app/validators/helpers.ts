import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { isCidr } from '#services/access/ip_allowlist'

/**
 * VineJS drops unknown properties silently; the API refuses them instead, so
 * a misspelt field is an error the integrator sees, not data that vanished.
 */
// request.validateUsing() adds these beside the body at the root.
const REQUEST_META = ['params', 'headers', 'cookies']

const onlyKnownFields = vine.createRule(
  (value: unknown, allowed: { keys: string[] }, field: FieldContext) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return
    const parent = field.getFieldPath()
    for (const key of Object.keys(value)) {
      if (allowed.keys.includes(key) || (parent === '' && REQUEST_META.includes(key))) continue
      const path = parent ? `${parent}.${key}` : key
      field.report(`Unknown field "${key}".`, 'unknown_field', {
        ...field,
        getFieldPath: () => path,
      })
    }
  }
)

export function strictObject<Properties extends Record<string, any>>(properties: Properties) {
  return vine.object(properties).use(onlyKnownFields({ keys: Object.keys(properties) }))
}

export const slug = () =>
  vine
    .string()
    .trim()
    .minLength(2)
    .maxLength(64)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
export const name = () => vine.string().trim().minLength(1).maxLength(200)
export const email = () => vine.string().trim().maxLength(254).email()
/** A password a person chooses: long enough to resist guessing, short enough to hash cheaply. */
export const password = () => vine.string().minLength(12).maxLength(128)
/** A new password typed twice: `password` must match `password_confirmation`. */
export const newPassword = () => ({
  password: password().confirmed(),
  password_confirmation: vine.string().maxLength(128),
})
/** What a person reads when its new password is refused. */
export const PASSWORD_MESSAGES = {
  'password.minLength': 'Choose a password of at least {{ min }} characters.',
  'password.maxLength': 'Choose a password of at most {{ max }} characters.',
  'confirmed': 'The two passwords do not match.',
}
export const uuid = () => vine.string().uuid()
/**
 * An http(s) URL Leadgate will dial (a webhook endpoint, a buyer's system): the shape only;
 * whether it may be reached (SSRF policy, https in production) is the service's check, which
 * resolves the host.
 */
export const httpUrl = () =>
  vine
    .string()
    .trim()
    .maxLength(2048)
    .url({ require_protocol: true, protocols: ['http', 'https'], require_tld: false })
export const countryCode = () =>
  vine
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const isoCurrency = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !ISO_CURRENCIES.has(value)) {
    field.report('Use an ISO 4217 currency code, e.g. EUR.', 'currency', field)
  }
})
export const currency = () => vine.string().trim().toUpperCase().fixedLength(3).use(isoCurrency())
/** Hours a buyer may return a lead: up to 90 days; 0 makes a sale final at once. */
export const returnWindow = () => vine.number({ strict: true }).withoutDecimals().range([0, 2160])
export const cents = () => vine.number({ strict: true }).withoutDecimals().min(0).max(100_000_000)

/** JSON numbers and booleans as themselves: "2500" and 1 are not a price or a flag. */
export const integer = () => vine.number({ strict: true }).withoutDecimals()
export const flag = () => vine.boolean({ strict: true })

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
/** What Postgres and ISO 8601's four-digit years both hold, in UTC: 0001-01-01 to 9999-12-31. */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

const isoTimestamp = vine.createRule(
  (value: unknown, options: { dateAllowed: boolean }, field: FieldContext) => {
    if (typeof value !== 'string') return
    const shaped = ISO_INSTANT.test(value) || (options.dateAllowed && ISO_DATE.test(value))
    const moment = Date.parse(value)
    if (!shaped || Number.isNaN(moment)) {
      field.report(
        'Use an ISO 8601 timestamp with its offset, e.g. 2026-11-22T09:00:00Z.',
        'timestamp',
        field
      )
    } else if (moment < EARLIEST || moment > LATEST) {
      field.report(
        'Use a moment between 0001-01-01 and 9999-12-31 (UTC).',
        'timestamp_range',
        field
      )
    }
  }
)

/**
 * An ISO 8601 moment with its offset, as a string: numbers (epoch
 * milliseconds, or "12345" read as a year) and times without a zone are
 * refused rather than guessed. Filters (`dateAllowed`) also take a bare date.
 */
export const timestamp = (options = { dateAllowed: false }) =>
  vine
    .string()
    .trim()
    .maxLength(40)
    .use(isoTimestamp(options))
    .transform((value) => new Date(value))

/** A `from`/`to` filter: a timestamp or a bare date (midnight UTC). */
export const periodBound = () => timestamp({ dateAllowed: true })

const cidrRule = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !isCidr(value)) {
    field.report(
      'Each entry must be an IPv4 or IPv6 address or CIDR block, e.g. 203.0.113.0/24.',
      'cidr',
      field
    )
  }
})
export const cidr = () => vine.string().trim().maxLength(64).use(cidrRule())

export const permissions = () =>
  vine
    .array(vine.enum(['read', 'submit'] as const))
    .minLength(1)
    .maxLength(2)
export const environment = () => vine.enum(['live', 'sandbox'] as const)

/**
 * What a compliance officer or key may audit: publishers and labels by slug,
 * and a period (bare dates are midnight UTC; `to` is exclusive).
 */
export const complianceScope = () =>
  strictObject({
    publishers: vine.array(slug()).maxLength(100).optional(),
    labels: vine.array(slug()).maxLength(100).optional(),
    from: periodBound().optional(),
    to: periodBound().optional(),
  })

/** Cursor pagination: `?limit=&cursor=` on every list. */
export const pagination = {
  limit: vine.number().withoutDecimals().range([1, 200]).optional(),
  cursor: vine.string().maxLength(200).optional(),
}
