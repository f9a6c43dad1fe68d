import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { isCidr } from '#services/ip_allowlist'

/**
 * VineJS drops unknown properties silently; the API refuses them instead, so
 * a misspelt field is an error the integrator sees, not data that vanished.
 */
// request.validateUsing() adds these beside the body at the root.
const REQUEST_META = ['params', 'headers', 'cookies']

const onlyKnownFields = vine.createRule((value: unknown, allowed: { keys: string[] }, field: FieldContext) => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return
  const parent = field.getFieldPath()
  for (const key of Object.keys(value)) {
    if (allowed.keys.includes(key) || (parent === '' && REQUEST_META.includes(key))) continue
    const path = parent ? `${parent}.${key}` : key
    field.report(`Unknown field "${key}".`, 'unknown_field', { ...field, getFieldPath: () => path })
  }
})

export function strictObject<Properties extends Record<string, any>>(properties: Properties) {
  return vine.object(properties).use(onlyKnownFields({ keys: Object.keys(properties) }))
}

export const slug = () => vine.string().trim().minLength(2).maxLength(64).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
export const name = () => vine.string().trim().minLength(1).maxLength(200)
export const email = () => vine.string().trim().maxLength(254).email()
export const uuid = () => vine.string().uuid()
export const countryCode = () => vine.string().trim().toUpperCase().regex(/^[A-Z]{2}$/)
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const isoCurrency = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !ISO_CURRENCIES.has(value)) {
    field.report('Use an ISO 4217 currency code, e.g. EUR.', 'currency', field)
  }
})
export const currency = () => vine.string().trim().toUpperCase().fixedLength(3).use(isoCurrency())
export const cents = () => vine.number({ strict: true }).withoutDecimals().min(0).max(100_000_000)

/** JSON numbers and booleans as themselves: "2500" and 1 are not a price or a flag. */
export const integer = () => vine.number({ strict: true }).withoutDecimals()
export const flag = () => vine.boolean({ strict: true })

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/

const validInstant = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && Number.isNaN(Date.parse(value))) {
    field.report('The {{ field }} field must be a real date and time.', 'timestamp', field)
  }
})

/**
 * An ISO 8601 timestamp with its offset, as a string: numbers and dates
 * without a time zone are refused rather than guessed.
 */
export const timestamp = () =>
  vine
    .string()
    .trim()
    .maxLength(40)
    .regex(ISO_TIMESTAMP)
    .use(validInstant())
    .transform((value) => new Date(value))

const cidrRule = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !isCidr(value)) {
    field.report('Each entry must be an IPv4 or IPv6 address or CIDR block, e.g. 203.0.113.0/24.', 'cidr', field)
  }
})
export const cidr = () => vine.string().trim().maxLength(64).use(cidrRule())

export const permissions = () =>
  vine.array(vine.enum(['read', 'submit'] as const)).minLength(1).maxLength(2)
export const environment = () => vine.enum(['live', 'sandbox'] as const)

/** Cursor pagination: `?limit=&cursor=` on every list. */
export const pagination = {
  limit: vine.number().withoutDecimals().range([1, 200]).optional(),
  cursor: vine.string().maxLength(200).optional(),
}
