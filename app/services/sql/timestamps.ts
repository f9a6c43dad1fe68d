import { DateTime } from 'luxon'

/** A stored moment: a Lucid column, or what Postgres hands back for a raw row. */
type Moment = DateTime | Date | string

/**
 * A stored moment as every answer writes it: ISO 8601 in UTC, to the millisecond
 * ("2026-11-27T14:05:09.000Z"); null when there is none.
 */
export function isoTime(moment: Moment): string
export function isoTime(moment: Moment | null | undefined): string | null
export function isoTime(moment: Moment | null | undefined): string | null {
  if (moment === null || moment === undefined || moment === '') return null
  return (DateTime.isDateTime(moment) ? moment.toJSDate() : new Date(moment)).toISOString()
}
