import type { AudienceOperator } from '#services/quality/quality_rules'

/**
 * Attribute values arrive as JSON strings, numbers or booleans, and a form
 * posts `"34"` where an API sends `34`: comparisons see through that.
 * Equality ignores case and surrounding spaces; order needs numbers.
 */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string' || value.trim() === '') return null
  const number = Number(value.trim())
  return Number.isFinite(number) ? number : null
}

function equalityKey(value: unknown): string | null {
  if (typeof value === 'boolean') return String(value)
  const number = asNumber(value)
  if (number !== null) return `n:${number}`
  return typeof value === 'string' ? value.trim().toLowerCase() : null
}

function same(actual: unknown, expected: unknown) {
  const key = equalityKey(actual)
  return key !== null && key === equalityKey(expected)
}

function bounds(value: unknown): [number, number] | null {
  const pair = Array.isArray(value)
    ? value
    : value && typeof value === 'object'
      ? [(value as Record<string, unknown>).min, (value as Record<string, unknown>).max]
      : []
  if (pair.length !== 2) return null
  const [low, high] = pair.map(asNumber)
  return low === null || high === null ? null : [low, high]
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value]
}

function compact(value: unknown) {
  return typeof value === 'string' || typeof value === 'number'
    ? String(value).replace(/\s+/g, '').toLowerCase()
    : null
}

/** A malformed criterion value never matches: a lead is not "within" an audience nobody can read. */
export const OPERATORS: Record<AudienceOperator, (actual: unknown, expected: unknown) => boolean> =
  {
    eq: (actual, expected) => same(actual, expected),
    in: (actual, expected) =>
      Array.isArray(expected) && expected.some((item) => same(actual, item)),
    not_in: (actual, expected) =>
      Array.isArray(expected) &&
      equalityKey(actual) !== null &&
      !expected.some((item) => same(actual, item)),
    gte: (actual, expected) => {
      const [a, b] = [asNumber(actual), asNumber(expected)]
      return a !== null && b !== null && a >= b
    },
    lte: (actual, expected) => {
      const [a, b] = [asNumber(actual), asNumber(expected)]
      return a !== null && b !== null && a <= b
    },
    between: (actual, expected) => {
      const range = bounds(expected)
      const a = asNumber(actual)
      return range !== null && a !== null && a >= range[0] && a <= range[1]
    },
    prefix: (actual, expected) => {
      const text = compact(actual)
      return (
        text !== null &&
        list(expected).some((item) => {
          const start = compact(item)
          return start !== null && start !== '' && text.startsWith(start)
        })
      )
    },
  }

/** The criterion in words, for the reason message (the rule's values, never the lead's). */
export function describe(op: AudienceOperator, value: unknown) {
  const show = (item: unknown) => (typeof item === 'string' ? `"${item}"` : JSON.stringify(item))
  const range = bounds(value)
  switch (op) {
    case 'between':
      return range ? `between ${range[0]} and ${range[1]}` : 'within a range'
    case 'in':
      return `one of ${list(value).map(show).join(', ')}`
    case 'not_in':
      return `none of ${list(value).map(show).join(', ')}`
    case 'eq':
      return `equal to ${show(value)}`
    case 'gte':
      return `at least ${show(value)}`
    case 'lte':
      return `at most ${show(value)}`
    case 'prefix':
      return `starting with ${list(value).map(show).join(' or ')}`
  }
}
