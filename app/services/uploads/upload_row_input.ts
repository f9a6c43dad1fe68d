import { DateTime } from 'luxon'
import vine from '@vinejs/vine'
import type { AttributeValue, LeadInput, Reason, ReasonCode } from '#services/quality/types'
import type { QualityRules } from '#services/quality/quality_rules'
import type { ColumnPlan, LeadField } from '#services/uploads/upload_columns'

/** Reasons of an upload row: the quality rules', and what the file itself got wrong. */
export const ROW_REASON_CODES = ['malformed_row', 'invalid_value'] as const
export type RowReason = Omit<Reason, 'code'> & {
  code: ReasonCode | (typeof ROW_REASON_CODES)[number]
}

/**
 * A row as stored: the cells of a CSV line, the object of a JSON line, or
 * the text of a JSON line that holds no object (a malformed row).
 */
export type RawRow = unknown[] | Record<string, unknown> | string
export type Cell = string | number | boolean | null

/** The longest text each field takes (as `POST /v1/leads` does). */
const MAX_LENGTH: Record<string, number> = {
  'contact.name': 200,
  'contact.email': 254,
  'contact.phone': 32,
  'contact.postal_code': 16,
  'contact.country': 2,
  'provenance.source': 200,
  'provenance.campaign': 200,
  'provenance.landing_page': 2000,
  'consent.text': 5000,
  'consent.ip': 64,
  'consent.timestamp': 40,
}
/** U+FFFD (what the reader puts for a NUL or a lone surrogate) and control characters. */
// eslint-disable-next-line no-control-regex
const UNREADABLE = /[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
const TRUE = new Set(['true', 'yes', 'y', '1', 'ja', 'oui', 'x'])
const FALSE = new Set(['false', 'no', 'n', '0', 'nee', 'non', ''])

/** The keys of a JSON object as columns: nested objects flattened with dots (`contact.email`). */
export function flatten(
  value: Record<string, unknown>,
  prefix = '',
  into: Record<string, Cell> = {}
) {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      flatten(item as Record<string, unknown>, path, into)
    } else {
      into[path] = Array.isArray(item) ? JSON.stringify(item) : (item as Cell)
    }
  }
  return into
}

/** The row's cells in column order. */
export function cellsOf(raw: Exclude<RawRow, string>, columns: string[]): Cell[] {
  if (Array.isArray(raw)) return raw as Cell[]
  const flat = flatten(raw)
  return columns.map((column) => flat[column] ?? null)
}

export type InputOptions = {
  /**
   * A consent timestamp that reads as a moment is given as a Date (as the
   * intake input type allows), which the consent rule takes as it is
   * instead of parsing the text again: the same instant, a third of the
   * rules' work for a row. Only where no audience criterion compares the
   * timestamp itself (see `momentsAsDates`), since it compares text.
   */
  momentsAsDates?: boolean
}

/** Whether rows may carry their consent timestamps as Dates (`InputOptions`) under these rules. */
export function momentsAsDates(rules: QualityRules) {
  return !(rules.target_audience ?? []).some((criterion) => criterion.field === 'consent.timestamp')
}

/**
 * A row as the lead intake would receive it, and what is wrong with the
 * row itself: a CSV line with more or fewer cells than the header, a value
 * no lead field can take (a consent flag that is neither yes nor no, a
 * landing page that is no URL, text past a field's length).
 */
export function leadInputOf(
  raw: RawRow,
  columns: string[],
  plan: ColumnPlan,
  publisher: string,
  options: InputOptions = {}
): { input: LeadInput; problems: RowReason[] } {
  const problems: RowReason[] = []
  if (typeof raw === 'string') {
    problems.push({
      code: 'malformed_row',
      action: 'reject',
      message: 'The line is not a JSON object.',
    })
    return { input: { publisher, contact: {} }, problems }
  }
  if (Array.isArray(raw) && raw.length !== columns.length) {
    problems.push({
      code: 'malformed_row',
      action: 'reject',
      message: `The row has ${raw.length} cells where the header has ${columns.length}.`,
    })
  }
  const cells = cellsOf(raw, columns)
  const input: LeadInput = { publisher, contact: {} }
  const groups = input as unknown as Record<string, Record<string, unknown>>
  plan.targets.forEach((target, index) => {
    const cell = cells[index]
    if (!target || cell === null || cell === undefined) return
    const text = typeof cell === 'string' ? cell.trim() : cell
    if (text === '') return
    if (typeof text === 'string' && UNREADABLE.test(text)) {
      invalid(problems, target, 'The value holds characters that are not text (a wrong encoding?).')
      return
    }
    const [group, key] = target.split('.')
    const value = target.startsWith('attributes.')
      ? attributeValue(text, target, problems)
      : fieldValue(target as LeadField, text, problems, options)
    // The first column with a value gives the field.
    if (value === undefined || groups[group]?.[key] !== undefined) return
    groups[group] ??= {}
    groups[group][key] = value
  })
  return { input, problems }
}

function invalid(problems: RowReason[], field: string, message: string) {
  problems.push({ code: 'invalid_value', field, action: 'reject', message })
  return undefined
}

function fieldValue(
  field: LeadField,
  cell: string | number | boolean,
  problems: RowReason[],
  options: InputOptions
) {
  if (field === 'consent.given') {
    if (typeof cell === 'boolean') return cell
    const word = String(cell).trim().toLowerCase()
    if (TRUE.has(word)) return true
    if (FALSE.has(word)) return false
    return invalid(problems, field, `"${cell}" is neither yes nor no (true/false, yes/no, 1/0).`)
  }
  const text = String(cell).trim()
  if (text.length > (MAX_LENGTH[field] ?? 200)) {
    return invalid(problems, field, `At most ${MAX_LENGTH[field]} characters.`)
  }
  if (field === 'contact.country') {
    if (!/^[a-z]{2}$/i.test(text)) {
      return invalid(problems, field, 'A country is an ISO 3166-1 alpha-2 code, e.g. NL.')
    }
    return text.toUpperCase()
  }
  if (field === 'provenance.landing_page') {
    if (!vine.helpers.isURL(text, { require_protocol: true, protocols: ['http', 'https'] })) {
      return invalid(problems, field, 'The landing page must be an http(s) address.')
    }
  }
  // Spreadsheets write "2026-11-20 09:00:00": read as UTC, as an ISO moment without offset is.
  if (field === 'consent.timestamp') {
    const moment = momentOf(text)
    return moment === null ? text : options.momentsAsDates ? new Date(moment) : moment
  }
  return text
}

/** An ISO moment as `toISOString` writes it, which is already the form read below. */
const CANONICAL_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function momentOf(text: string) {
  // The common case without luxon: a valid moment in canonical form is its own answer.
  if (CANONICAL_MOMENT.test(text)) {
    const date = new Date(text)
    if (!Number.isNaN(date.getTime()) && date.toISOString() === text) return text
  }
  const moment = DateTime.fromISO(text, { zone: 'utc' })
  const parsed = moment.isValid ? moment : DateTime.fromSQL(text, { zone: 'utc' })
  return parsed.isValid ? parsed.toUTC().toISO() : null
}

function attributeValue(
  cell: string | number | boolean,
  field: string,
  problems: RowReason[]
): AttributeValue | undefined {
  if (typeof cell !== 'string') {
    return typeof cell === 'number' && !Number.isFinite(cell)
      ? invalid(problems, field, 'Attribute numbers must be finite.')
      : cell
  }
  if (cell.length > 500) return invalid(problems, field, 'At most 500 characters.')
  if (cell === 'true' || cell === 'false') return cell === 'true'
  const number = Number(cell)
  // Only a number written the way it reads back ("0612" stays text).
  return Number.isFinite(number) && String(number) === cell ? number : cell
}
