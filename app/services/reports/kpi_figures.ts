import type { KpiFigures } from '#services/reports/types'
import { MEASURES, type Sums, type SumsRow } from '#services/reports/report_figures'

/** How many top reasons a row lists. */
export const TOP_REASONS = 5

export type Funnel = { views: number; starts: number; submissions: number }
export type MoneyByCurrency = {
  currency: string
  revenue_cents: number
  payout_cents: number
  margin_cents: number
}

/** What one group adds to the shared figures: money per currency when a group mixes them. */
export type ReportFigures = KpiFigures & { by_currency: MoneyByCurrency[] }

/**
 * `part / whole` to `places` decimals, half up, as Postgres's round() of the exact quotient:
 * scaling the integer before dividing keeps a quotient such as 267.775 from landing a hair
 * below the half as a float (267.77499…) and rounding down.
 */
const quotient = (part: number, whole: number, places: number) =>
  Math.round((part * 10 ** places) / whole) / 10 ** places

const rate = (part: number, whole: number) => (whole === 0 ? null : quotient(part, whole, 4))

/**
 * One group's figures from its sums per currency. Money stands at the top level when the group
 * has one currency; a group that mixes them has its amounts in `by_currency` only.
 */
export function figuresOf(
  sums: SumsRow[],
  extra: { reasons: { code: string; count: number }[]; p90: number | null; funnel?: Funnel }
): ReportFigures {
  const total = Object.fromEntries(MEASURES.map((m) => [m, 0])) as Sums
  for (const row of sums) for (const m of MEASURES) total[m] += row[m]
  const money = new Map<string, MoneyByCurrency>()
  for (const row of sums) {
    if (row.currency === null) continue
    const into = money.get(row.currency) ?? {
      currency: row.currency,
      revenue_cents: 0,
      payout_cents: 0,
      margin_cents: 0,
    }
    into.revenue_cents += row.revenue_cents
    into.payout_cents += row.payout_cents
    into.margin_cents = into.revenue_cents - into.payout_cents
    money.set(row.currency, into)
  }
  const byCurrency = [...money.values()]
    .filter((amounts) => amounts.revenue_cents !== 0 || amounts.payout_cents !== 0)
    .sort((a, b) => a.currency.localeCompare(b.currency))
  const amounts =
    byCurrency.length > 1
      ? { currency: null }
      : {
          currency: byCurrency[0]?.currency ?? null,
          revenue_cents: byCurrency[0]?.revenue_cents ?? 0,
          payout_cents: byCurrency[0]?.payout_cents ?? 0,
          margin_cents: byCurrency[0]?.margin_cents ?? 0,
        }
  return {
    volume: total.volume,
    accepted: total.accepted,
    acceptance_rate: rate(total.accepted, total.volume),
    flagged: total.flagged,
    flagged_rate: rate(total.flagged, total.volume),
    rejected: total.rejected,
    rejection_rate: rate(total.rejected, total.volume),
    top_reasons: extra.reasons
      .map(({ code, count }) => ({ code, count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
      .slice(0, TOP_REASONS),
    drop_off: {
      ...(extra.funnel
        ? {
            form_views: extra.funnel.views,
            form_starts: extra.funnel.starts,
            form_submissions: extra.funnel.submissions,
          }
        : {}),
      received: total.volume,
      accepted: total.accepted,
      matched: total.matched,
      kept: total.kept,
    },
    avg_processing_ms:
      total.processing_count === 0
        ? null
        : quotient(total.processing_ms_sum, total.processing_count, 2),
    p90_processing_ms: extra.p90,
    ...amounts,
    returns: total.returns,
    by_currency: byCurrency,
  }
}

const NUMERIC = [
  'volume',
  'accepted',
  'flagged',
  'rejected',
  'avg_processing_ms',
  'p90_processing_ms',
  'revenue_cents',
  'payout_cents',
  'margin_cents',
  'returns',
] as const
const RATES = ['acceptance_rate', 'flagged_rate', 'rejection_rate'] as const

/**
 * The change against the previous period: relative for counts, amounts and times
 * ((now - before) / before, null when before is zero or unknown), in points for rates
 * (now - before, as a fraction).
 */
export function changeOf(now: KpiFigures, before: KpiFigures) {
  const change: Record<string, number | null> = {}
  const round = (value: number) => Math.round(value * 10_000) / 10_000
  for (const key of NUMERIC) {
    const [a, b] = [now[key], before[key]]
    if (a === undefined && b === undefined) continue
    change[key] =
      typeof a === 'number' && typeof b === 'number' && b !== 0 ? round((a - b) / b) : null
  }
  for (const key of RATES) {
    const [a, b] = [now[key], before[key]]
    change[key] = a === null || b === null ? null : round(a - b)
  }
  return change
}

/** Takes away the figures an audience is never shown, wherever they appear. */
export function withoutHidden<T extends Record<string, any>>(figures: T, hidden: string[]): T {
  const copy: Record<string, any> = { ...figures }
  for (const key of hidden) delete copy[key]
  if (Array.isArray(copy.by_currency)) {
    copy.by_currency = copy.by_currency.map((money: Record<string, number>) => {
      const kept = { ...money }
      for (const key of hidden) delete kept[key]
      return kept
    })
  }
  return copy as T
}
