/** How a label's leads are sold (DESIGN §14); every field has a default. */
export type SaleSettings = {
  /** How many buyers may share a lead: 1 sells every lead exclusively. */
  maxSales: number
  /** How long a sale may fall through from buyer to buyer before the lead is left unsold. */
  deadlineSeconds: number
  /** How long an auction waits for bids. */
  tmaxMs: number
  auction: 'first_price' | 'second_price'
}

/** The settings as the API takes and stores them (`labels.sale`). */
export type SaleSettingsInput = {
  max_sales?: number
  deadline_seconds?: number
  tmax_ms?: number
  auction?: 'first_price' | 'second_price'
}

export const SALE_DEFAULTS: SaleSettings = {
  maxSales: 1,
  deadlineSeconds: 30,
  tmaxMs: 750,
  auction: 'first_price',
}

export const MAX_SHARED_SALES = 8

export function saleSettings(stored: SaleSettingsInput | null | undefined): SaleSettings {
  return {
    maxSales: stored?.max_sales ?? SALE_DEFAULTS.maxSales,
    deadlineSeconds: stored?.deadline_seconds ?? SALE_DEFAULTS.deadlineSeconds,
    tmaxMs: stored?.tmax_ms ?? SALE_DEFAULTS.tmaxMs,
    auction: stored?.auction ?? SALE_DEFAULTS.auction,
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
  }
}
