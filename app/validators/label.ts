import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import {
  documentedAs,
  integer,
  name,
  pagination,
  slug,
  strictObject,
  webUrl,
} from '#validators/helpers'
import { MAX_SHARED_SALES, NEVER_PINGED, PING_TREATMENTS } from '#services/routing/sale_settings'
import { PAGE_LOCALES, asciiHostname } from '#services/catalogue/label_service'
import { isTimeZone } from '#services/reports/report_period'

/** A logo shows on https pages and e-mails: an http one would be blocked as mixed content. */
const logoUrl = () => webUrl(2048, ['https'])

// Stored in lower case so one colour has one spelling.
const primaryColor = () =>
  vine
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .toLowerCase()

/** A host name such as `leads.acme.example`, kept in the ASCII form a Host header carries. */
const hostnameRule = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value !== 'string') return
  const host = asciiHostname(value)
  if (!host) {
    field.report(
      'Use a host name such as leads.acme.example: no scheme, port, path or IP address.',
      'hostname',
      field
    )
    return
  }
  field.mutate(host, field)
})

/** The fields a ping policy may name: a lead's contact area, its provenance, its attributes. */
const PING_FIELD =
  /^(contact\.(postal_code|country|name|email|phone)|provenance\.(source|campaign|landing_page)|attributes\.(\*|[a-z][a-z0-9_]{0,63}))$/

/**
 * A ping policy: a field path per treatment. A name, e-mail or phone is never pinged, so only
 * `never` may be said of them; saying more would promise what the sale does not do.
 */
const pingPolicyRule = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (!value || typeof value !== 'object') return
  for (const [path, treatment] of Object.entries(value)) {
    if (!PING_FIELD.test(path)) {
      field.report(
        `${path} is no field a ping can carry: use contact.postal_code, contact.country, provenance.source, provenance.campaign, provenance.landing_page, attributes.* or attributes.<name>.`,
        'ping_field',
        field
      )
      return
    }
    if ((NEVER_PINGED as readonly string[]).includes(path) && treatment !== 'never') {
      field.report(
        `A ping never carries ${path}: only never may be set for it.`,
        'never_pinged',
        field
      )
      return
    }
  }
})

/** An IANA zone (`Europe/Berlin`), as its reports read days and months in it. */
const timeZoneRule = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value === 'string' && !isTimeZone(value)) {
    field.report('Use an IANA time zone such as Europe/Berlin.', 'time_zone', field)
  }
})
const timeZone = () => vine.string().trim().maxLength(64).use(timeZoneRule())

export const createLabelValidator = vine.create(
  strictObject({
    slug: slug(),
    name: name(),
    branding: strictObject({
      logo_url: logoUrl().optional(),
      primary_color: primaryColor().optional(),
    })
      .use(documentedAs('Branding'))
      .optional(),
    locale: vine.enum(PAGE_LOCALES).optional(),
    time_zone: timeZone().optional(),
  })
)

/**
 * A merge patch: `branding` merges into the stored branding, and a null
 * removes what it names (`custom_host: null` frees the host).
 */
export const updateLabelValidator = vine.create(
  strictObject({
    name: name().optional(),
    branding: strictObject({
      logo_url: logoUrl().nullable().optional(),
      primary_color: primaryColor().nullable().optional(),
    }).optional(),
    custom_host: vine.string().trim().maxLength(253).use(hostnameRule()).nullable().optional(),
    locale: vine.enum(PAGE_LOCALES).optional(),
    time_zone: timeZone().optional(),
    /** How its leads are sold (docs/selling.md); merges into what is stored. */
    sale: strictObject({
      max_sales: integer().range([1, MAX_SHARED_SALES]).optional(),
      deadline_seconds: integer().range([1, 300]).optional(),
      tmax_ms: integer().range([100, 10_000]).optional(),
      auction: vine.enum(['first_price', 'second_price'] as const).optional(),
      /** Per field `plain`, `bucketed` or `never`; merges into the stored policy. */
      ping_policy: vine.record(vine.enum(PING_TREATMENTS)).use(pingPolicyRule()).optional(),
    }).optional(),
  })
)

export const listLabelsValidator = vine.create(strictObject({ ...pagination }))
