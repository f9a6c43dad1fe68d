import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import type { Condition } from '#services/reports/report_figures'
import type { KpiFigures, ReportDimension, ReportFilters } from '#services/reports/types'

/**
 * Who reads which rows and which figures of a report (docs/reports.md, "Who sees what"): the
 * operator everything; a publisher its own rows, never revenue or margin; a label manager its
 * label's publishers, as a publisher would; a buyer its own purchases, never payout, margin or
 * which publisher a lead came from.
 */
export type Audience = 'operator' | 'publisher' | 'buyer'

/** Any id that matches no row: a principal without its owner sees nothing. */
const NOBODY = '00000000-0000-0000-0000-000000000000'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function audienceOf(principal: Principal): Audience {
  if (principal.kind === 'buyer') return 'buyer'
  if (principal.kind === 'publisher' || principal.kind === 'label_manager') return 'publisher'
  return 'operator'
}

/** The figures each audience never receives. */
export const HIDDEN: Record<Audience, (keyof KpiFigures)[]> = {
  operator: [],
  publisher: ['revenue_cents', 'margin_cents'],
  buyer: ['payout_cents', 'margin_cents'],
}

const GROUPINGS: Record<Audience, ReportDimension[]> = {
  operator: ['publisher', 'label', 'buyer', 'channel'],
  publisher: ['publisher', 'label', 'channel'],
  buyer: ['buyer', 'channel'],
}

function refuse(detail: string): never {
  throw ApiProblem.forbidden('filter_not_allowed', detail)
}

export function assertGroupingAllowed(principal: Principal, groupBy?: ReportDimension) {
  if (groupBy && !GROUPINGS[audienceOf(principal)].includes(groupBy)) {
    refuse(`A ${principal.kind} does not group reports by ${groupBy}.`)
  }
}

export function assertFigureAllowed(principal: Principal, figure: string) {
  if ((HIDDEN[audienceOf(principal)] as string[]).includes(figure)) {
    throw ApiProblem.forbidden(
      'metric_not_allowed',
      `${figure} is not shown to a ${principal.kind}.`
    )
  }
}

/** The rows this principal may read at all, whatever it filters on. */
export function principalConditions(principal: Principal, environment?: string): Condition[] {
  const conditions: Condition[] = []
  if (principal.kind === 'publisher') {
    conditions.push({ sql: 'r.publisher_id = ?', bindings: [principal.publisherId ?? NOBODY] })
  } else if (principal.kind === 'buyer') {
    conditions.push({ sql: 'r.buyer_id = ?', bindings: [principal.buyerId ?? NOBODY] })
  } else if (principal.kind === 'label_manager') {
    conditions.push({ sql: 'r.label_id = ?', bindings: [principal.labelId ?? NOBODY] })
  } else if (principal.kind !== 'operator') {
    conditions.push({ sql: 'false', bindings: [] })
  }
  if (principal.environment === 'sandbox' && environment === 'live') {
    refuse('A sandbox credential reads sandbox data only; use a live key for live figures.')
  }
  const asked = principal.isOperator ? (environment ?? principal.environment) : null
  conditions.push({ sql: 'r.environment = ?', bindings: [asked ?? principal.environment] })
  return conditions
}

type Owned = { id: string; slug: string | null; label_id: string | null; time_zone: string | null }

async function lookUp(table: 'publishers' | 'labels' | 'buyers', values: string[]) {
  const ids = values.filter((value) => UUID.test(value))
  const slugs = table === 'buyers' ? [] : values
  const query = db.from(table).where((q) => {
    q.whereIn(`${table}.id`, ids)
    if (slugs.length > 0) q.orWhereIn(`${table}.slug`, slugs)
  })
  if (table === 'publishers') {
    query
      .leftJoin('labels', 'labels.id', 'publishers.label_id')
      .select('publishers.id', 'publishers.slug', 'publishers.label_id', 'labels.time_zone')
  } else if (table === 'labels') {
    query.select('labels.id', 'labels.slug', 'labels.id as label_id', 'labels.time_zone')
  } else {
    query.select('buyers.id', db.raw('NULL AS slug, NULL AS label_id, NULL AS time_zone'))
  }
  const rows: Owned[] = await query
  for (const value of values) {
    if (!rows.some((row) => row.id === value || row.slug === value)) {
      throw ApiProblem.notFound(table.slice(0, -1))
    }
  }
  return rows
}

export type ResolvedFilters = { conditions: Condition[]; zones: string[] }

/**
 * Filters by id or slug, each checked against what the principal may see: another owner's
 * publisher, label or buyer answers 404 as if it did not exist; a filter on what the caller
 * is never shown (a buyer for a publisher, a publisher for a buyer) is refused.
 */
export async function resolveFilters(
  principal: Principal,
  filters: ReportFilters
): Promise<ResolvedFilters> {
  const audience = audienceOf(principal)
  const conditions: Condition[] = []
  const zones: string[] = []
  const visible = (row: Owned, dimension: 'publisher' | 'label' | 'buyer') => {
    if (principal.kind === 'publisher') {
      return dimension === 'publisher' ? row.id === principal.publisherId : true
    }
    if (principal.kind === 'label_manager') return row.label_id === principal.labelId
    if (principal.kind === 'buyer') return row.id === principal.buyerId
    return true
  }
  const dimensions = [
    ['publisher', 'publishers', 'publisher_id'],
    ['label', 'labels', 'label_id'],
    ['buyer', 'buyers', 'buyer_id'],
  ] as const
  for (const [dimension, table, column] of dimensions) {
    const values = filters[dimension]
    if (!values?.length) continue
    if (audience === 'buyer' && dimension !== 'buyer') {
      refuse(
        `A buyer does not filter by ${dimension}: where a lead came from is not shown to buyers.`
      )
    }
    if (audience === 'publisher' && dimension === 'buyer') {
      refuse('Only the operator filters by buyer.')
    }
    const rows = await lookUp(table, values)
    if (rows.some((row) => !visible(row, dimension))) throw ApiProblem.notFound(dimension)
    if (principal.kind === 'publisher' && dimension === 'label') {
      const own = await db
        .from('publishers')
        .where('id', principal.publisherId ?? NOBODY)
        .first()
      if (rows.some((row) => row.id !== own?.label_id)) throw ApiProblem.notFound('label')
    }
    conditions.push({
      sql: `r.${column} = ANY(?::uuid[])`,
      bindings: [rows.map((row) => row.id)],
    })
    if (dimension !== 'buyer' && rows.length === 1) zones.push(rows[0].time_zone ?? 'UTC')
  }
  if (filters.channel?.length) {
    conditions.push({ sql: 'r.channel = ANY(?::text[])', bindings: [filters.channel] })
  }
  return { conditions, zones }
}

/**
 * The zone a report reads its periods in: the label's when the report is about one label (a
 * publisher's is its label's), else UTC.
 */
export async function zoneOf(principal: Principal, resolved: ResolvedFilters) {
  if (principal.kind === 'publisher' || principal.kind === 'label_manager') {
    const row = await db
      .from('labels')
      .select('time_zone')
      .where(
        'id',
        principal.kind === 'label_manager'
          ? (principal.labelId ?? NOBODY)
          : db
              .from('publishers')
              .select('label_id')
              .where('id', principal.publisherId ?? NOBODY)
      )
      .first()
    return (row?.time_zone as string | undefined) ?? 'UTC'
  }
  const zones = new Set(resolved.zones)
  return zones.size === 1 ? [...zones][0] : 'UTC'
}
