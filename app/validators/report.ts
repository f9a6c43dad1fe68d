import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { environment, strictObject } from '#validators/helpers'
import { CHANNELS } from '#services/intake/delivery_methods'
import { NAMED_PERIODS } from '#services/reports/report_period'
import { REPORT_DIMENSIONS, TIMESERIES_METRICS } from '#services/reports/vocabulary'

/** At most this many values per filter. */
const MAX_VALUES = 50

/**
 * A filter given once, repeated (`?publisher=a&publisher=b`) or comma separated; each value an
 * id or slug of at most 64 characters, or one of `allowed`.
 */
const listRule = vine.createRule(
  (value: unknown, options: { allowed?: readonly string[] }, field: FieldContext) => {
    const values = (Array.isArray(value) ? value : [value])
      .flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]))
      .map((item) => (typeof item === 'string' ? item.trim() : item))
    const bad = values.find(
      (item) =>
        typeof item !== 'string' ||
        !/^[A-Za-z0-9_-]{1,64}$/.test(item) ||
        (options.allowed && !options.allowed.includes(item))
    )
    if (bad !== undefined || values.length > MAX_VALUES) {
      field.report(
        options.allowed
          ? `Use one or more of: ${options.allowed.join(', ')}.`
          : `Use up to ${MAX_VALUES} ids or slugs, repeated or separated by commas.`,
        'list',
        field
      )
      return
    }
    field.mutate([...new Set(values as string[])], field)
  },
  {
    // A query string value; how it repeats or splits is the parameter's description.
    toJSONSchema: (schema, options) => {
      delete schema.anyOf
      schema.type = 'string'
      if (options.allowed) schema.enum = [...options.allowed]
    },
  }
)
const list = (allowed?: readonly string[]) =>
  vine
    .any()
    .use(listRule({ allowed }))
    .optional()
    .transform((value) => value as string[])

/** A bare date (midnight in the report's zone) or a moment with its offset; `to` is exclusive. */
const bound = () =>
  vine
    .string()
    .trim()
    .maxLength(40)
    .regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/)
    .optional()

const reportFields = {
  from: bound(),
  to: bound(),
  period: vine.enum(NAMED_PERIODS).optional(),
  time_zone: vine.string().trim().maxLength(64).optional(),
  publisher: list(),
  label: list(),
  buyer: list(),
  channel: list(CHANNELS),
  environment: environment().optional(),
  format: vine.enum(['json', 'csv'] as const).optional(),
}

export const kpiReportValidator = vine.create(
  strictObject({ ...reportFields, group_by: vine.enum(REPORT_DIMENSIONS).optional() })
)

export const timeseriesReportValidator = vine.create(
  strictObject({
    ...reportFields,
    metric: vine.enum(TIMESERIES_METRICS),
    interval: vine.enum(['hour', 'day'] as const).optional(),
  })
)
