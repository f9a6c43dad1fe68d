import { isIP } from 'node:net'
import { inject } from '@adonisjs/core'
import Label, { type Branding } from '#models/label'
import type { SaleSettingsInput } from '#services/routing/sale_settings'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { transaction } from '#services/sql/transaction'
import { isUniqueViolation } from '#services/sql/unique_violation'

/** The languages a label's hosted pages speak (resources/lang/<locale>/). */
export const PAGE_LOCALES = ['en', 'de', 'fr', 'nl', 'es'] as const
export type PageLocale = (typeof PAGE_LOCALES)[number]

export type CreateLabelInput = {
  slug: string
  name: string
  branding?: Branding
  locale?: PageLocale
  /** IANA; the zone its reports read days and months in (default UTC). */
  time_zone?: string
}
/** A null removes what it names: a branding entry, or the label's own host. */
export type UpdateLabelInput = {
  name?: string
  branding?: { logo_url?: string | null; primary_color?: string | null }
  custom_host?: string | null
  locale?: PageLocale
  time_zone?: string
  sale?: SaleSettingsInput
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/**
 * A host name in the form a Host header carries it (lower case, IDNs as
 * punycode, no trailing dot), or null when `value` is not one: a scheme,
 * port, path or credentials, an IP address, a single label, a malformed
 * label. The WHATWG URL parser does the canonical form.
 */
export function asciiHostname(value: string): string | null {
  if (!/^[^\s/\\:?#@[\]]+$/.test(value)) return null
  let host: string
  try {
    host = new URL(`https://${value}/`).hostname.replace(/\.$/, '')
  } catch {
    return null
  }
  const labels = host.split('.')
  const valid =
    host.length <= 253 &&
    isIP(host) === 0 &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    TOP_LEVEL.test(labels[labels.length - 1])
  return valid ? host : null
}

/** Labels are the operator's brands; publishers deliver under one of them. */
@inject()
export default class LabelService {
  constructor(protected accessLog: AccessLogService) {}

  async create(principal: Principal, input: CreateLabelInput) {
    if (await Label.findBy('slug', input.slug)) throw slugTaken(input.slug)
    try {
      return await transaction(async (trx) => {
        const label = await Label.create(
          {
            slug: input.slug,
            name: input.name,
            branding: input.branding ?? {},
            locale: input.locale ?? 'en',
            timeZone: input.time_zone ?? 'UTC',
          },
          { client: trx }
        )
        await this.accessLog.record(
          principal.actor,
          'label.created',
          { type: 'label', id: label.id },
          { trx }
        )
        return label
      })
    } catch (error) {
      if (isUniqueViolation(error, 'labels_slug_unique')) throw slugTaken(input.slug)
      throw error
    }
  }

  /** The catalogue is the operator's alone; anyone else sees no label at all. */
  visibleTo(principal: Principal) {
    const query = Label.query()
    if (!principal.isOperator) query.whereRaw('false')
    return query
  }

  list(principal: Principal, page: PageRequest) {
    return paginate(this.visibleTo(principal), page)
  }

  async findVisible(principal: Principal, id: string) {
    const label = await this.visibleTo(principal).where('id', id).first()
    if (!label) throw ApiProblem.notFound('label')
    return label
  }

  /**
   * Renames, rebrands, or gives the label a host of its own (unique across
   * labels: 409 `host_taken`). Branding merges into what is stored.
   */
  async update(principal: Principal, label: Label, input: UpdateLabelInput) {
    const fields = Object.keys(input).filter(
      (field) => input[field as keyof UpdateLabelInput] !== undefined
    )
    if (fields.length === 0) return label
    const host = input.custom_host
    if (host && host !== label.customHost) {
      const holder = await Label.query().where('custom_host', host).whereNot('id', label.id).first()
      if (holder) throw hostTaken(host)
    }
    try {
      await transaction(async (trx) => {
        label.useTransaction(trx)
        if (input.name !== undefined) label.name = input.name
        if (input.branding !== undefined)
          label.branding = mergedBranding(label.branding, input.branding)
        if (host !== undefined) label.customHost = host
        if (input.locale !== undefined) label.locale = input.locale
        if (input.time_zone !== undefined) label.timeZone = input.time_zone
        if (input.sale !== undefined) label.sale = mergedSale(label.sale, input.sale)
        await label.save()
        await this.accessLog.record(
          principal.actor,
          'label.updated',
          { type: 'label', id: label.id },
          // A host name is the operator's, not personal data: it shows what a login page was branded by.
          { details: { fields, ...(host !== undefined ? { custom_host: host } : {}) }, trx }
        )
      })
    } catch (error) {
      // Two labels racing for one host: the loser gets the same 409 as a late caller.
      if (host && isUniqueViolation(error, 'labels_custom_host_unique')) throw hostTaken(host)
      throw error
    }
    return label
  }

  /**
   * The label whose own host a request arrived on (its Host header, port
   * and all), or null: the portal brands its login page with it. Anyone may
   * ask; a label's name and branding are what its host shows the public.
   */
  async labelForHost(host: string | null | undefined): Promise<Label | null> {
    if (!host) return null
    let hostname: string
    try {
      hostname = new URL(`https://${host}/`).hostname
    } catch {
      return null
    }
    const ascii = asciiHostname(hostname)
    if (!ascii) return null
    return Label.findBy('custom_host', ascii)
  }
}

function mergedBranding(stored: Branding | null, patch: NonNullable<UpdateLabelInput['branding']>) {
  const branding: Record<string, string> = { ...stored }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete branding[key]
    else if (value !== undefined) branding[key] = value
  }
  return branding as Branding
}

function hostTaken(host: string) {
  return ApiProblem.conflict('host_taken', `Another label already uses the host "${host}".`, {
    field: 'custom_host',
  })
}

function slugTaken(slug: string) {
  return ApiProblem.conflict('slug_taken', `A label with slug "${slug}" already exists.`, {
    field: 'slug',
  })
}

/** A sale patch merges into what is stored, its ping policy field by field. */
function mergedSale(stored: SaleSettingsInput | null, patch: SaleSettingsInput): SaleSettingsInput {
  const merged = { ...stored, ...patch }
  if (patch.ping_policy) merged.ping_policy = { ...stored?.ping_policy, ...patch.ping_policy }
  return merged
}
