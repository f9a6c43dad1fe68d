import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import type Principal from '#auth/principal'
import type LeadService from '#services/leads/lead_service'
import { type LeadFilters, audienceOf } from '#services/leads/lead_service'
import type { LeadAudience } from '#services/leads/lead_presenter'
import { LEAD_FIELD_PATHS } from '#services/quality/quality_rules'

/** Leads read per page while the CSV streams: memory stays flat whatever the export's size. */
const PAGE = 500

const COMMON = [
  'id',
  'publisher',
  'status',
  'environment',
  'channel',
  ...LEAD_FIELD_PATHS,
  'provenance.label',
  'attributes',
  'reasons',
  'created_at',
]

/** Beside the common columns, what each audience reads of review and routing (lead_presenter.ts). */
const COLUMNS: Record<LeadAudience, string[]> = {
  operator: [
    ...COMMON,
    'review.decision',
    'review.reason',
    'buyer_id',
    'price_cents',
    'payout_cents',
    'currency',
    'unsold_reason',
  ],
  publisher: [...COMMON, 'review.decision', 'review.reason', 'payout_cents', 'currency'],
  buyer: [...COMMON, 'price_cents', 'currency'],
}

function cell(lead: Record<string, any>, path: string) {
  const value = path
    .split('.')
    .reduce<any>((at, key) => (at === null || at === undefined ? undefined : at[key]), lead)
  if (path === 'reasons' && Array.isArray(value)) return value.map((r) => r?.code ?? r).join(' ')
  if (value !== null && typeof value === 'object') return JSON.stringify(value)
  return value ?? null
}

/**
 * GET /v1/leads?format=csv: the leads the list would answer, every page of them, as CSV. Each
 * cell is read from the lead as the list presents it to this caller, so a field hidden from
 * it is never in a column. A cell a spreadsheet would run as a formula is escaped.
 */
export function leadsCsv(leads: LeadService, principal: Principal, filters: LeadFilters) {
  const columns = COLUMNS[audienceOf(principal)]
  async function* records() {
    let cursor: string | undefined = filters.cursor
    do {
      const page = await leads.list(principal, { ...filters, cursor, limit: PAGE })
      for (const lead of page.data) yield columns.map((path) => cell(lead, path))
      cursor = page.next_cursor ?? undefined
    } while (cursor)
  }
  return Readable.from(records()).pipe(stringify({ header: true, columns, escape_formulas: true }))
}
