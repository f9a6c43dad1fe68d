import vine from '@vinejs/vine'
import type { FieldContext, SchemaTypes } from '@vinejs/vine/types'
import type { JSONSchema7 } from 'json-schema'
import { isCidr } from '#services/access/ip_allowlist'

/**
 * The OpenAPI document (app/openapi) is built from these validators' JSON Schema
 * (`toJSONSchema()`). A rule that VineJS cannot describe says what it checks
 * through its `toJSONSchema` hook; the two below check nothing and only speak
 * to the document.
 */
type Described = JSONSchema7 & Record<`x-${string}`, unknown>

/**
 * Names a shape: every field built with it becomes a `$ref` to one component
 * of that name. Its schema is the one in force where the rule is applied, so
 * a narrower use (`slug().maxLength(20)`) still shows what it adds.
 */
export const documentedAs = vine.createRule<string>(() => {}, {
  name: 'documentedAs',
  toJSONSchema: (schema, name) => {
    const shape = structuredClone(schema)
    ;(schema as Described)['x-component'] = { name, schema: shape }
  },
})

/**
 * VineJS drops unknown properties silently; the API refuses them instead, so
 * a misspelt field is an error the integrator sees, not data that vanished.
 */
// request.validateUsing() adds these beside the body at the root.
const REQUEST_META = ['params', 'headers', 'cookies']

type KnownFields = {
  keys: string[]
  /** Fields that must be present, a nullable one too (VineJS's JSON Schema counts it as optional). */
  required: string[]
}

/** Unknown fields refused, and each condition a field put on its presence (requiredOn below). */
function knownFieldsSchema(schema: JSONSchema7, known: KnownFields) {
  schema.additionalProperties = false
  schema.required = known.required
  const conditions: JSONSchema7[] = []
  for (const [key, property] of Object.entries(schema.properties ?? {}) as [string, Described][]) {
    const condition = property['x-required-if'] as JSONSchema7 | undefined
    if (!condition) continue
    delete property['x-required-if']
    conditions.push({ if: condition, then: { required: [key] } })
  }
  if (conditions.length) schema.allOf = conditions
}

/** A condition VineJS keeps as a closure, stated for the object that holds the field. */
const requiredOn = vine.createRule<JSONSchema7>(() => {}, {
  name: 'requiredOn',
  toJSONSchema: (schema, condition) => {
    ;(schema as Described)['x-required-if'] = condition
  },
})

/**
 * `schema.optional().requiredWhen(other, '=', value)`, as the document can see it (an optional
 * field's own rules do not reach its JSON Schema, so the condition goes on the schema first).
 */
export function requiredWhen<Schema extends Optionable>(
  schema: Schema,
  other: string,
  value: string
) {
  const condition = { properties: { [other]: { const: value } }, required: [other] }
  return schema.use(requiredOn(condition)).optional().requiredWhen(other, '=', value) as ReturnType<
    Schema['optional']
  >
}

/** `schema.optional().requiredIfMissing(other)`, as the document can see it. */
export function requiredIfMissing<Schema extends Optionable>(schema: Schema, other: string) {
  return schema
    .use(requiredOn({ not: { required: [other] } }))
    .optional()
    .requiredIfMissing(other) as ReturnType<Schema['optional']>
}

type Optionable = {
  use(validation: ReturnType<typeof requiredOn>): Optionable
  optional(): {
    requiredWhen(other: string, operator: '=', value: string): unknown
    requiredIfMissing(other: string): unknown
  }
}

const onlyKnownFields = vine.createRule(
  (value: unknown, allowed: KnownFields, field: FieldContext) => {
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
  },
  { toJSONSchema: knownFieldsSchema }
)

export function strictObject<Properties extends Record<string, SchemaTypes>>(
  properties: Properties
) {
  const keys = Object.keys(properties)
  const required = keys.filter((key) => properties[key].isOptional !== true)
  return vine.object(properties).use(onlyKnownFields({ keys, required }))
}

/** A value upper-cased before its pattern is checked may be sent in either case. */
const eitherCase = vine.createRule(() => {}, {
  name: 'eitherCase',
  toJSONSchema: (schema) => {
    if (schema.pattern) schema.pattern = schema.pattern.replaceAll('A-Z', 'A-Za-z')
  },
})

export const slug = () =>
  vine
    .string()
    .trim()
    .minLength(2)
    .maxLength(64)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .use(documentedAs('Slug'))
export const name = () => vine.string().trim().minLength(1).maxLength(200).use(documentedAs('Name'))
export const email = () => vine.string().trim().maxLength(254).email().use(documentedAs('Email'))
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
export const uuid = () => vine.string().uuid().use(documentedAs('Id'))
/**
 * An http(s) URL Leadgate will dial (a webhook endpoint, a buyer's system): the shape only;
 * whether it may be reached (SSRF policy, https in production) is the service's check, which
 * resolves the host.
 */
export const httpUrl = () => webUrl(2048, ['http', 'https'], { require_tld: false })
export const countryCode = () =>
  vine
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
    .use(eitherCase())
    .use(documentedAs('CountryCode'))
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const isoCurrency = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    if (typeof value === 'string' && !ISO_CURRENCIES.has(value)) {
      field.report('Use an ISO 4217 currency code, e.g. EUR.', 'currency', field)
    }
  },
  // Which three letters are a currency is Intl's list; the document shows their shape.
  { toJSONSchema: (schema) => void (schema.pattern = '^[A-Z]{3}$') }
)
export const currency = () =>
  vine
    .string()
    .trim()
    .toUpperCase()
    .fixedLength(3)
    .use(isoCurrency())
    .use(eitherCase())
    .use(documentedAs('Currency'))
/** What a URL rule's `protocols` allow, as the document's pattern. */
const urlSchemes = vine.createRule<string[]>(() => {}, {
  name: 'urlSchemes',
  toJSONSchema: (schema, protocols) => {
    schema.pattern =
      protocols.length === 1 ? `^${protocols[0]}://` : `^(?:${protocols.join('|')})://`
  },
})
/** A URL of up to `max` characters with one of these schemes, and the scheme always written. */
export const webUrl = (max: number, protocols: string[], options: { require_tld?: false } = {}) =>
  vine
    .string()
    .trim()
    .maxLength(max)
    .url({ require_protocol: true, protocols, ...options })
    .use(urlSchemes(protocols))

/** Hours a buyer may return a lead: up to 90 days; 0 makes a sale final at once. */
export const returnWindow = () => vine.number({ strict: true }).withoutDecimals().range([0, 2160])
export const cents = () =>
  vine.number({ strict: true }).withoutDecimals().min(0).max(100_000_000).use(documentedAs('Cents'))

/** JSON numbers and booleans as themselves: "2500" and 1 are not a price or a flag. */
export const integer = () => vine.number({ strict: true }).withoutDecimals()
export const flag = () => vine.boolean({ strict: true })

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
/** What Postgres and ISO 8601's four-digit years both hold, in UTC: 0001-01-01 to 9999-12-31. */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

/** The shape ISO_INSTANT checks (and, for a filter, ISO_DATE); the moment's range is not a pattern. */
function timestampSchema(schema: JSONSchema7, options: { dateAllowed: boolean }) {
  const shapes = options.dateAllowed ? [ISO_INSTANT, ISO_DATE] : [ISO_INSTANT]
  schema.pattern = shapes.map((shape) => shape.source).join('|')
}

/**
 * Whether the written date and time exist: `Date.parse` reads 2026-02-30 as 2 March and 24:00
 * as the next midnight, where a person meant something else (or made a typo).
 */
function onTheCalendar(value: string) {
  const [, year, month, day, hour, minute, second] =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value) ?? []
  if (!year) return false
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()
  return (
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour ?? 0) <= 23 &&
    Number(minute ?? 0) <= 59 &&
    Number(second ?? 0) <= 59
  )
}

const isoTimestamp = vine.createRule(
  (value: unknown, options: { dateAllowed: boolean }, field: FieldContext) => {
    if (typeof value !== 'string') return
    const shaped = ISO_INSTANT.test(value) || (options.dateAllowed && ISO_DATE.test(value))
    const moment = Date.parse(value)
    if (!shaped || Number.isNaN(moment) || !onTheCalendar(value)) {
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
  },
  { toJSONSchema: timestampSchema }
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
    .use(documentedAs(options.dateAllowed ? 'PeriodBound' : 'TimestampInput'))
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
export const cidr = () =>
  vine.string().trim().maxLength(64).use(cidrRule()).use(documentedAs('Cidr'))

export const permissions = () =>
  vine
    .array(vine.enum(['read', 'submit'] as const).use(documentedAs('Permission')))
    .minLength(1)
    .maxLength(2)
    .use(documentedAs('Permissions'))
export const environment = () =>
  vine.enum(['live', 'sandbox'] as const).use(documentedAs('Environment'))

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
  }).use(documentedAs('ComplianceScopeInput'))

/** Cursor pagination: `?limit=&cursor=` on every list. */
export const pagination = {
  limit: vine.number().withoutDecimals().range([1, 200]).optional(),
  cursor: vine.string().maxLength(200).optional(),
}
