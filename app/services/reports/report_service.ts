import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import Principal, { type Environment } from '#auth/principal'
import type {
  KpiQuery,
  KpiReport,
  KpiRow,
  ReportDimension,
  Timeseries,
  TimeseriesQuery,
} from '#services/reports/types'
import {
  type Period,
  readFunnel,
  readP90,
  readReasons,
  readSums,
  type SumsRow,
} from '#services/reports/report_figures'
import { bucketsOf, periodJson, previousOf } from '#services/reports/report_period'
import {
  HIDDEN,
  assertFigureAllowed,
  assertGroupingAllowed,
  audienceOf,
  principalConditions,
  resolveFilters,
  zoneOf,
} from '#services/reports/report_scope'
import { type Funnel, changeOf, figuresOf, withoutHidden } from '#services/reports/kpi_figures'
import {
  type KpiInput,
  type TimeseriesInput,
  kpiQueryOf,
  timeseriesQueryOf,
} from '#services/reports/report_query'

const CURRENT = 0
const PREVIOUS = 1

/**
 * Reads several publishers' rows at once for `ownKpisOf` and `ownTimeseriesOf`, which hide what
 * they may not see.
 */
const GROUPED_READER = new Principal('operator', new Set(['read']), 'live', 'system:reports')
/** Whom the grouped readings answer for: a publisher's own principal, for what it may be shown. */
const OWN_AUDIENCE = new Principal('publisher', new Set(['read']), 'live', 'system:reports')

/**
 * KPIs and time series over `lead_facts` (docs/reports.md): whole months, days and hours from
 * the rollups the facts' triggers keep, the partial edges from the facts themselves, each figure
 * beside the previous period of the same length. Who sees which rows and figures:
 * `report_scope.ts`.
 */
@inject()
export default class ReportService {
  /** The API's query string, its period read in the report's time zone. */
  kpiQuery(principal: Principal, input: KpiInput) {
    return kpiQueryOf(principal, input)
  }

  timeseriesQuery(principal: Principal, input: TimeseriesInput) {
    return timeseriesQueryOf(principal, input)
  }

  /** The rows the principal may read as it filtered them, the zone, and the previous period. */
  private async scope(principal: Principal, query: KpiQuery | TimeseriesQuery) {
    const resolved = await resolveFilters(principal, query.filters)
    const timeZone = query.timeZone ?? (await zoneOf(principal, resolved))
    return {
      timeZone,
      conditions: [
        ...principalConditions(principal, query.filters.environment),
        ...resolved.conditions,
      ],
      previous: previousOf(query.from, query.to, timeZone),
    }
  }

  async kpis(principal: Principal, query: KpiQuery): Promise<KpiReport> {
    assertGroupingAllowed(principal, query.groupBy)
    const { timeZone, conditions, previous } = await this.scope(principal, query)
    const periods: Period[] = [
      { bucket: CURRENT, from: query.from, to: query.to },
      { bucket: PREVIOUS, ...previous },
    ]
    const groupBy = query.groupBy ?? null
    const withFunnel = audienceOf(principal) !== 'buyer' && groupBy !== 'buyer'
    const read = (grouping: ReportDimension | null) =>
      Promise.all([
        readSums(periods, grouping, conditions),
        readReasons(periods, grouping, conditions),
        readP90(periods, grouping, conditions, grouping !== null),
        withFunnel ? readFunnel(periods, grouping, conditions) : Promise.resolve([]),
      ])
    const grouped = await read(groupBy)
    // Counts, reasons and funnels add up over the groups; the p90's totals came in its own pass.
    const p90s = grouped[2]
    grouped[2] = p90s.filter((row) => !row.total)
    const totals: typeof grouped | null = groupBy
      ? [
          grouped[0].map((row) => ({ ...row, key: null })),
          merged(grouped[1], (row) => `${row.bucket}:${row.code}`, 'count'),
          p90s.filter((row) => row.total),
          merged(grouped[3], (row) => String(row.bucket), 'views', 'starts', 'submissions'),
        ]
      : null
    const hidden = HIDDEN[audienceOf(principal)]
    // Each table by bucket and group once: a lookup per group, not a scan of every row.
    const rowsOf = (tables: Awaited<ReturnType<typeof read>>) => {
      const [sumsOf, reasonsOf, p90sOf, funnelsOf] = [
        byGroup(tables[0]),
        byGroup(tables[1]),
        byGroup(tables[2]),
        byGroup(tables[3]),
      ]
      return (key: string | null): KpiRow => {
        const figures = (bucket: number) => {
          const group = `${bucket}:${key}`
          const funnel = funnelsOf.get(group)?.[0]
          return figuresOf(sumsOf.get(group) ?? [], {
            reasons: reasonsOf.get(group) ?? [],
            p90: p90sOf.get(group)?.[0]?.p90 ?? null,
            funnel: withFunnel
              ? (funnel ?? ({ views: 0, starts: 0, submissions: 0 } as Funnel))
              : undefined,
          })
        }
        const [now, before] = [figures(CURRENT), figures(PREVIOUS)]
        return withoutHidden(
          {
            key,
            ...now,
            previous: withoutHidden(before, hidden),
            change: withoutHidden(changeOf(now, before), hidden),
          },
          hidden
        )
      }
    }
    const keys = [...new Set(grouped[0].map((row: SumsRow) => row.key))]
    const names = groupBy ? await namesOf(groupBy, keys) : new Map<string, string>()
    const groupRow = rowsOf(grouped)
    const rows = groupBy
      ? keys
          .map((key) => ({ ...groupRow(key), name: key ? (names.get(key) ?? null) : null }))
          .sort((a, b) => b.volume - a.volume || String(a.key).localeCompare(String(b.key)))
      : []
    return {
      period: periodJson(query.from, query.to),
      previous_period: periodJson(previous.from, previous.to),
      time_zone: timeZone,
      group_by: groupBy,
      totals: rowsOf(totals ?? grouped)(null),
      rows,
    }
  }

  /**
   * Several publishers' own KPIs over one period from one reading grouped by publisher (a live
   * dashboard's push: four statements for every publisher due, not four each). Each report is
   * what `kpis` answers that publisher's own principal for the same period, zone and
   * environment: its row as the totals, without what a publisher is never shown. A publisher
   * with no row (no figure in either period) is left out; its caller asks `kpis` for it.
   */
  async ownKpisOf(
    publisherIds: string[],
    query: Omit<KpiQuery, 'groupBy' | 'filters' | 'timeZone'> & {
      timeZone: string
      environment: Environment
    }
  ): Promise<Map<string, KpiReport>> {
    const grouped = await this.kpis(GROUPED_READER.in(query.environment), {
      from: query.from,
      to: query.to,
      timeZone: query.timeZone,
      groupBy: 'publisher',
      filters: { publisher: publisherIds, environment: query.environment },
    })
    const hidden = HIDDEN.publisher
    const reports = new Map<string, KpiReport>()
    for (const { key, ...named } of grouped.rows) {
      if (key === null) continue
      // A publisher's own totals carry no name.
      const row = withoutHidden(named, ['name'])
      reports.set(key, {
        period: grouped.period,
        previous_period: grouped.previous_period,
        time_zone: grouped.time_zone,
        group_by: null,
        totals: {
          key: null,
          ...withoutHidden(row, hidden),
          previous: withoutHidden(row.previous, hidden),
          change: withoutHidden(row.change, hidden),
        },
        rows: [],
      })
    }
    return reports
  }

  async timeseries(principal: Principal, query: TimeseriesQuery): Promise<Timeseries> {
    assertFigureAllowed(principal, query.metric)
    const { timeZone, conditions, previous } = await this.scope(principal, query)
    const series = seriesOf(query, timeZone, previous)
    return series.of(await readSums(series.periods, null, conditions))
  }

  /**
   * Several publishers' own time series over one period from one reading grouped by publisher
   * (a live dashboard's push), like `ownKpisOf`: each is what `timeseries` answers that
   * publisher's own principal for the same query, zone and environment. A publisher without a
   * row gets its series of empty points, as it would alone.
   */
  async ownTimeseriesOf(
    publisherIds: string[],
    query: Omit<TimeseriesQuery, 'filters' | 'timeZone'> & {
      timeZone: string
      environment: Environment
    }
  ): Promise<Map<string, Timeseries>> {
    assertFigureAllowed(OWN_AUDIENCE, query.metric)
    const reader = GROUPED_READER.in(query.environment)
    const { timeZone, conditions, previous } = await this.scope(reader, {
      ...query,
      filters: { publisher: publisherIds, environment: query.environment },
    })
    const series = seriesOf(query, timeZone, previous)
    const sums = Map.groupBy(
      await readSums(series.periods, 'publisher', conditions),
      (row) => row.key
    )
    return new Map(publisherIds.map((id) => [id, series.of(sums.get(id) ?? [])]))
  }
}

/**
 * A time series' buckets, and its points from the sums read over them (one group's rows).
 * The previous period's points line up with the current ones from their starts.
 */
function seriesOf(
  query: Pick<TimeseriesQuery, 'metric' | 'interval' | 'from' | 'to'>,
  timeZone: string,
  previous: { from: Date; to: Date }
) {
  const current = bucketsOf(query.from, query.to, query.interval, timeZone)
  const before = bucketsOf(previous.from, previous.to, query.interval, timeZone)
  const offset = current.length
  const periods: Period[] = [
    ...current.map((point, index) => ({ ...point, bucket: index })),
    ...before.slice(0, offset).map((point, index) => ({ ...point, bucket: offset + index })),
  ]
  const of = (sums: SumsRow[]): Timeseries => {
    const valueOf = (bucket: number) =>
      metricOf(
        query.metric,
        sums.filter((row) => row.bucket === bucket)
      )
    return {
      metric: query.metric,
      interval: query.interval,
      time_zone: timeZone,
      period: periodJson(query.from, query.to),
      points: current.map((bucket, index) => ({
        at: bucket.from.toISOString(),
        value: valueOf(index),
        previous: index < before.length ? valueOf(offset + index) : null,
      })),
    }
  }
  return { periods, of }
}

/**
 * A metric of one point. Money is summed only within one currency: a point that mixes
 * currencies has no single amount (null); its KPI rows carry `by_currency`.
 */
function metricOf(metric: Timeseries['metric'], sums: SumsRow[]): number | null {
  const total = (key: keyof SumsRow) => sums.reduce((sum, row) => sum + Number(row[key]), 0)
  if (metric === 'avg_processing_ms') {
    const count = total('processing_count')
    return count === 0 ? null : Math.round((total('processing_ms_sum') / count) * 100) / 100
  }
  if (metric.endsWith('_cents')) {
    const currencies = new Set(sums.filter((row) => row.kept > 0).map((row) => row.currency))
    if (currencies.size > 1) return null
    if (metric === 'margin_cents') return total('revenue_cents') - total('payout_cents')
    return total(metric as 'revenue_cents' | 'payout_cents')
  }
  return total(metric as 'volume' | 'accepted' | 'flagged' | 'rejected' | 'matched' | 'returns')
}

/** Rows by bucket and group. */
function byGroup<T extends { bucket: number; key: string | null }>(rows: T[]) {
  return Map.groupBy(rows, (row) => `${row.bucket}:${row.key}`)
}

/** Rows summed per `identity` over their groups, as the totals' rows (key null). */
function merged<T extends { key: string | null }>(
  rows: T[],
  identity: (row: T) => string,
  ...counts: (keyof T)[]
): T[] {
  const byIdentity = new Map<string, T>()
  for (const row of rows) {
    const into = byIdentity.get(identity(row))
    if (!into) {
      byIdentity.set(identity(row), { ...row, key: null })
      continue
    }
    for (const count of counts) (into[count] as number) += row[count] as number
  }
  return [...byIdentity.values()]
}

/** Publishers and labels by slug, buyers by name, channels by themselves. */
async function namesOf(groupBy: ReportDimension, keys: (string | null)[]) {
  const ids = keys.filter((key): key is string => key !== null)
  if (groupBy === 'channel') return new Map(ids.map((id) => [id, id]))
  const table = { publisher: 'publishers', label: 'labels', buyer: 'buyers' }[groupBy]
  const column = groupBy === 'buyer' ? 'name' : 'slug'
  const rows = await db.from(table).whereIn('id', ids).select('id', `${column} as name`)
  return new Map(rows.map((row: { id: string; name: string }) => [row.id, row.name]))
}
