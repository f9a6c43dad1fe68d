import { kpiReportValidator, timeseriesReportValidator } from '#validators/report'
import { type Docs, queryParameters } from './from_validator.js'
import { REPORT_DIMENSIONS } from '#services/reports/vocabulary'
import { arrayOf, nullable, operation, ref, type Schema, type Section } from './helpers.js'

/** Reports (docs/reports.md): KPIs and time series over the facts of leads, never personal data. */
const count = { type: 'integer', minimum: 0 }
const fraction = {
  ...nullable({ type: 'number' }),
  description: 'A fraction of volume; null without volume.',
}
const milliseconds = nullable({ type: 'number', minimum: 0 })

const figures: Record<string, Schema> = {
  volume: { ...count, description: 'Leads received (for a buyer: bought).' },
  accepted: count,
  acceptance_rate: fraction,
  flagged: { ...count, description: 'Waiting for the operator’s review.' },
  flagged_rate: fraction,
  rejected: count,
  rejection_rate: fraction,
  top_reasons: arrayOf(
    {
      type: 'object',
      properties: { code: { type: 'string' }, count },
      required: ['code', 'count'],
    },
    { description: 'The reasons of flagged and rejected leads, most frequent first (five).' }
  ),
  drop_off: {
    type: 'object',
    description:
      'Form views → starts → submissions (forms, per UTC day) and received → accepted → matched → kept (not returned).',
    properties: Object.fromEntries(
      [
        'form_views',
        'form_starts',
        'form_submissions',
        'received',
        'accepted',
        'matched',
        'kept',
      ].map((step) => [step, count])
    ),
  },
  avg_processing_ms: milliseconds,
  p90_processing_ms: milliseconds,
  revenue_cents: {
    type: 'integer',
    description: 'What buyers paid for leads they kept. Never for a publisher.',
  },
  payout_cents: {
    type: 'integer',
    description: 'Earned by publishers on leads kept. Never for a buyer.',
  },
  margin_cents: { type: 'integer', description: 'Revenue minus payout. Operator only.' },
  currency: {
    ...nullable(ref('Currency')),
    description: 'Null when no money, or several currencies (see `by_currency`).',
  },
  by_currency: arrayOf({ type: 'object', properties: { currency: ref('Currency') } }),
  returns: { ...count, description: 'Leads returned by an upheld dispute.' },
}

const row: Schema = {
  type: 'object',
  properties: {
    key: {
      ...nullable({ type: 'string' }),
      description: 'The group’s id (a channel’s name); null for totals.',
    },
    name: {
      ...nullable({ type: 'string' }),
      description: 'Slug of a publisher or label, name of a buyer.',
    },
    ...figures,
    previous: {
      type: 'object',
      properties: figures,
      description: 'The previous period’s figures.',
    },
    change: {
      type: 'object',
      additionalProperties: nullable({ type: 'number' }),
      description: 'Relative change of counts, amounts and times; for rates the difference.',
    },
  },
  required: ['key', 'volume', 'previous', 'change'],
}

const period = {
  type: 'object',
  properties: { from: ref('Timestamp'), to: ref('Timestamp') },
  required: ['from', 'to'],
}

const list = (description: string) =>
  `${description} Repeated or comma separated. Another owner’s answers 404.`

const filters: Docs = {
  from: 'A date (midnight in the report’s zone) or a timestamp with its offset. Default: per `period`.',
  to: 'Exclusive; as `from`.',
  period:
    'A named period in the report’s zone when `from`/`to` are absent (default `last_30_days`).',
  time_zone: 'IANA zone; default the label’s when the report is about one label, else UTC.',
  publisher: list('Publisher ids or slugs.'),
  label: list('Label ids or slugs.'),
  buyer: list('Buyer ids (operator; a buyer its own).'),
  channel: list('Channels.'),
  format: 'Or `Accept: text/csv`.',
}

const csv = { 'text/csv': { schema: { type: 'string' } } }
const who =
  'The operator reads everything; a publisher its own figures, never revenue or margin; a label manager its label’s publishers, as a publisher; a buyer its purchases, never payout, margin or publishers.'

export const reports: Section = {
  tags: [
    {
      name: 'Reports',
      description:
        'KPIs and time series by publisher, label, buyer or channel, each beside the previous period of the same length, in the label’s time zone. Exact: whole hours from maintained rollups, partial ones from the facts.',
    },
  ],
  schemas: {
    KpiReport: {
      type: 'object',
      properties: {
        period,
        previous_period: period,
        time_zone: { type: 'string' },
        group_by: nullable({ type: 'string', enum: [...REPORT_DIMENSIONS] }),
        totals: row,
        rows: arrayOf(row),
      },
      required: ['period', 'previous_period', 'time_zone', 'group_by', 'totals', 'rows'],
    },
    Timeseries: {
      type: 'object',
      properties: {
        metric: { type: 'string' },
        interval: { type: 'string', enum: ['hour', 'day'] },
        time_zone: { type: 'string' },
        period,
        points: arrayOf({
          type: 'object',
          properties: {
            at: ref('Timestamp'),
            value: nullable({ type: 'number' }),
            previous: nullable({ type: 'number' }),
          },
          required: ['at', 'value', 'previous'],
        }),
      },
      required: ['metric', 'interval', 'time_zone', 'period', 'points'],
    },
  },
  paths: {
    '/v1/reports/kpis': {
      get: operation('/v1/reports/kpis', {
        id: 'getReportKpis',
        tag: 'Reports',
        summary: 'KPIs against the previous period',
        description: `${who} With \`Accept: text/csv\` or \`format=csv\`, one line per group (totals first).`,
        scope: 'read',
        parameters: queryParameters(kpiReportValidator, filters),
        success: {
          status: 200,
          description: 'The report.',
          schema: ref('KpiReport'),
          content: csv,
        },
        errors: [404, 422],
      }),
    },
    '/v1/reports/timeseries': {
      get: operation('/v1/reports/timeseries', {
        id: 'getReportTimeseries',
        tag: 'Reports',
        summary: 'A metric over time',
        description: `${who} Points are local hours or days; \`previous\` is the same point of the previous period.`,
        scope: 'read',
        parameters: queryParameters(timeseriesReportValidator, {
          ...filters,
          metric: { examples: ['volume'] },
        }),
        success: {
          status: 200,
          description: 'The series.',
          schema: ref('Timeseries'),
          content: csv,
        },
        errors: [404, 422],
      }),
    },
  },
}
