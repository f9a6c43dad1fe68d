/** How a label's leads are sold (DESIGN §14); every field has a default. */
export type SaleSettings = {
  /** How many buyers may share a lead: 1 sells every lead exclusively. */
  maxSales: number
  /** How long a sale may fall through from buyer to buyer before the lead is left unsold. */
  deadlineSeconds: number
  /** How long an auction waits for bids. */
  tmaxMs: number
  auction: 'first_price' | 'second_price'
  /** What a ping carries of each field (docs/selling.md, "Ping-post"); the rest never leaves. */
  pingPolicy: PingPolicy
}

/** A field's place in a ping: as it is, coarsened (an age band, a postcode area), or not at all. */
export type PingTreatment = 'plain' | 'bucketed' | 'never'
export const PING_TREATMENTS = ['plain', 'bucketed', 'never'] as const
export type PingPolicy = Record<string, PingTreatment>

/** The contact fields no ping ever carries, whatever a policy says, nor any hash of them. */
export const NEVER_PINGED = ['contact.name', 'contact.email', 'contact.phone'] as const

/**
 * Without a policy of its own a label pings the postal area and the country, the provenance's
 * source and campaign, and attributes as they are: enough for a buyer to price a lead, nothing
 * that names the person.
 */
export const DEFAULT_PING_POLICY: PingPolicy = {
  'contact.postal_code': 'bucketed',
  'contact.country': 'plain',
  'provenance.source': 'plain',
  'provenance.campaign': 'plain',
  'provenance.landing_page': 'never',
  'attributes.*': 'plain',
}

/** The settings as the API takes and stores them (`labels.sale`). */
export type SaleSettingsInput = {
  max_sales?: number
  deadline_seconds?: number
  tmax_ms?: number
  auction?: 'first_price' | 'second_price'
  ping_policy?: PingPolicy
}

export const SALE_DEFAULTS: SaleSettings = {
  maxSales: 1,
  deadlineSeconds: 30,
  tmaxMs: 750,
  auction: 'first_price',
  pingPolicy: DEFAULT_PING_POLICY,
}

export const MAX_SHARED_SALES = 8

export function saleSettings(stored: SaleSettingsInput | null | undefined): SaleSettings {
  return {
    maxSales: stored?.max_sales ?? SALE_DEFAULTS.maxSales,
    deadlineSeconds: stored?.deadline_seconds ?? SALE_DEFAULTS.deadlineSeconds,
    tmaxMs: stored?.tmax_ms ?? SALE_DEFAULTS.tmaxMs,
    auction: stored?.auction ?? SALE_DEFAULTS.auction,
    pingPolicy: { ...DEFAULT_PING_POLICY, ...stored?.ping_policy },
  }
}

/** The settings as the API answers them: every field, defaults filled in. */
export function saleSettingsToJson(stored: SaleSettingsInput | null | undefined) {
  const settings = saleSettings(stored)
  return {
    max_sales: settings.maxSales,
    deadline_seconds: settings.deadlineSeconds,
    tmax_ms: settings.tmaxMs,
    auction: settings.auction,
    ping_policy: settings.pingPolicy,
  }
}
