import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { email, httpUrl, integer, name, pagination, strictObject } from '#validators/helpers'
import { leadFieldsSchema } from '#validators/lead'
import { pluginName } from '#validators/plugin'
import {
  AUTH_TYPES,
  CONTENT_TYPES,
  HTTP_METHODS,
  type HttpDestinationInput,
  LIMITS,
  MONEY_UNITS,
} from '#services/selling/http_destination'

/**
 * A buyer's destination (API.md, "Selling"): the shapes only. Templates,
 * paths, patterns and whether a URL may be dialled are checked by
 * `destinationProblems` (app/services/selling/destination_problems.ts) after
 * this, since they need the template engine and DNS.
 */

const KINDS = ['webhook', 'http', 'email', 'crm'] as const

/** Leadgate's own headers (framing, signatures) are not the buyer's to set. */
const RESERVED_HEADER =
  /^(host|content-length|transfer-encoding|connection|webhook-.*|x-leadgate-.*)$/i
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const headerNames = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (!value || typeof value !== 'object') return
  const names = Object.keys(value)
  if (names.length > LIMITS.headerCount) {
    field.report(`Give at most ${LIMITS.headerCount} headers.`, 'header_count', field)
  }
  for (const header of names) {
    const problem =
      header.length > LIMITS.headerNameChars || !TOKEN.test(header)
        ? 'is not a valid header name'
        : RESERVED_HEADER.test(header)
          ? 'is set by Leadgate itself'
          : null
    if (problem) field.report(`"${header}" ${problem}.`, 'header_name', field)
  }
})

/** A field that only one kind of destination has. */
const onlyForKind = vine.createRule(
  (value: unknown, kind: { kind: string }, field: FieldContext) => {
    const given = (field.parent as { kind?: unknown } | undefined)?.kind
    if (value !== undefined && given !== undefined && given !== kind.kind) {
      field.report(`Only a destination of kind ${kind.kind} has ${field.name}.`, 'kind', field)
    }
  }
)

const text = (max: number) => vine.string().trim().minLength(1).maxLength(max)
const path = () => text(LIMITS.pathChars)
const timeout = (bounds: { min: number; max: number }) => integer().range([bounds.min, bounds.max])
const template = () => vine.string().minLength(1).maxLength(LIMITS.templateChars)

const rule = () =>
  strictObject({
    status: vine
      .array(integer().range([100, 599]))
      .minLength(1)
      .maxLength(LIMITS.statusCodes)
      .distinct()
      .optional(),
    path: path().optional(),
    equals: vine
      .unionOfTypes([
        vine.string().maxLength(LIMITS.equalsChars),
        vine.number({ strict: true }),
        vine.boolean({ strict: true }),
      ])
      .otherwise((_, field) =>
        field.report('Compare with a string, a number or true or false.', 'equals_type', field)
      )
      .optional(),
    matches: vine.string().minLength(1).maxLength(LIMITS.patternChars).optional(),
  })

const response = () =>
  strictObject({
    accepted: rule(),
    rejected: rule().optional(),
    duplicate: rule().optional(),
    reason_path: path().optional(),
    buyer_lead_id_path: path().optional(),
    price_path: path().optional(),
    price_unit: vine.enum(MONEY_UNITS).optional(),
  })

const ping = () =>
  strictObject({
    url: httpUrl(),
    template: template(),
    bid_path: path(),
    bid_id_path: path(),
    expires_in_path: path().optional(),
    timeout_ms: timeout(LIMITS.pingTimeoutMs).optional(),
    bid_unit: vine.enum(MONEY_UNITS).optional(),
  })

const typeIs = (type: string) => (value: unknown) =>
  vine.helpers.isObject(value) && (value as { type?: unknown }).type === type

/**
 * Auth by `type`, each with its secret; optional. On an update a secret may
 * be left out: the stored one stays.
 */
function auth(secretsRequired: boolean) {
  const secret = (max: number) =>
    secretsRequired
      ? vine.string().minLength(1).maxLength(max)
      : vine.string().minLength(1).maxLength(max).optional()
  return vine
    .union([
      vine.union.if(typeIs('none'), strictObject({ type: vine.literal('none') })),
      vine.union.if(
        typeIs('basic'),
        strictObject({ type: vine.literal('basic'), username: text(200), password: secret(500) })
      ),
      vine.union.if(
        typeIs('bearer'),
        strictObject({ type: vine.literal('bearer'), token: secret(4096) })
      ),
      vine.union.if(
        typeIs('header'),
        strictObject({
          type: vine.literal('header'),
          name: text(LIMITS.headerNameChars).regex(TOKEN),
          value: secret(4096),
        })
      ),
      vine.union.if(
        typeIs('query'),
        strictObject({ type: vine.literal('query'), name: text(100), value: secret(4096) })
      ),
      vine.union.if(
        typeIs('oauth2'),
        strictObject({
          type: vine.literal('oauth2'),
          token_url: httpUrl(),
          client_id: text(500),
          client_secret: secret(1000),
          scope: text(1000).optional(),
          audience: text(1000).optional(),
        })
      ),
    ])
    .optional()
    .otherwise((_, field) => {
      // The refusal is about the type the body named, so it names that field.
      const typePath = `${field.getFieldPath()}.type`
      field.report(`Use an auth type of ${AUTH_TYPES.join(', ')}.`, 'auth_type', {
        ...field,
        getFieldPath: () => typePath,
      })
    })
}

function http(secretsRequired: boolean) {
  return strictObject({
    method: vine.enum(HTTP_METHODS),
    url: httpUrl(),
    content_type: vine.enum(CONTENT_TYPES),
    template: template(),
    headers: vine
      .record(vine.string().maxLength(LIMITS.headerValueChars))
      .use(headerNames())
      .optional(),
    auth: auth(secretsRequired),
    timeout_ms: timeout(LIMITS.timeoutMs).optional(),
    response: response(),
    ping: ping().optional(),
  })
}

const emailSettings = () => strictObject({ to: email() })
const crmSettings = () => strictObject({ plugin: pluginName(), settings: vine.record(vine.any()) })

export const createDestinationValidator = vine.create(
  strictObject({
    name: name(),
    kind: vine.enum(KINDS),
    http: http(true)
      .optional()
      .requiredWhen('kind', '=', 'http')
      .use(onlyForKind({ kind: 'http' })),
    email: emailSettings()
      .optional()
      .requiredWhen('kind', '=', 'email')
      .use(onlyForKind({ kind: 'email' })),
    crm: crmSettings()
      .optional()
      .requiredWhen('kind', '=', 'crm')
      .use(onlyForKind({ kind: 'crm' })),
  })
)

/**
 * A destination keeps its kind; what changes is replaced whole (`http`,
 * `email`, `crm`), except the secrets an `http` update leaves out. Which of
 * these the stored kind takes is the service's check.
 */
export const updateDestinationValidator = vine.create(
  strictObject({
    name: name().optional(),
    http: http(false).optional(),
    email: emailSettings().optional(),
    crm: crmSettings().optional(),
  })
)

type Agrees<Shape extends HttpDestinationInput> = Shape
/** What the validator gives for `http` is the engine's input (this fails to compile when they part). */
export type DestinationHttpInput = Agrees<
  NonNullable<Awaited<ReturnType<typeof createDestinationValidator.validate>>['http']>
>

/** A test post: a lead of your own to send (its parts over the sample lead), or the sample itself. */
export const testDestinationValidator = vine.create(
  strictObject({ lead: leadFieldsSchema.clone().optional() })
)

export const listDestinationsValidator = vine.create(strictObject({ ...pagination }))
