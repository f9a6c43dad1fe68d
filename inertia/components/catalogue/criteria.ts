import type { Data } from '@generated/data'

/** A criterion as the server answers it: a routing rule's, or a quality rule's target audience. */
type Criterion = Data.RoutingRule['criteria'][number]

/** A criterion as the form sends it; the validators refuse what does not fit its operator. */
export type CriterionInput = {
  field: string
  op: string
  value: string | number | null | (string | number | null)[]
}

/**
 * One criterion as the form edits it: text for `eq`, `prefix` and the lists of `in` and
 * `not_in` (comma-separated), numbers for `gte`, `lte` and `between`.
 */
export type CriterionDraft = {
  field: string
  op: string
  text: string
  min: number | null
  max: number | null
}

/** The operators in words; the codes themselves come from the server's vocabulary. */
export const OPERATOR_WORDS: Record<string, string> = {
  eq: 'is',
  in: 'is one of',
  not_in: 'is none of',
  gte: 'is at least',
  lte: 'is at most',
  between: 'is between',
  prefix: 'starts with',
}

export const NUMERIC_OPERATORS = ['gte', 'lte', 'between']

export function blankCriterion(): CriterionDraft {
  return { field: '', op: 'eq', text: '', min: null, max: null }
}

export function toDraft(criterion: Criterion): CriterionDraft {
  const draft = { ...blankCriterion(), field: criterion.field, op: criterion.op }
  const value = criterion.value
  if (criterion.op === 'between' && Array.isArray(value)) {
    return { ...draft, min: Number(value[0]), max: Number(value[1]) }
  }
  if (criterion.op === 'gte' || criterion.op === 'lte') return { ...draft, min: Number(value) }
  if (Array.isArray(value)) return { ...draft, text: value.join(', ') }
  return { ...draft, text: value === undefined || value === null ? '' : String(value) }
}

/**
 * The criterion the API takes. Lists and equality go as strings: the engine compares "34"
 * and 34 alike, so a form need not guess which the operator meant.
 */
export function fromDraft(draft: CriterionDraft): CriterionInput {
  const field = draft.field.trim()
  switch (draft.op) {
    case 'between':
      return { field, op: draft.op, value: [draft.min, draft.max] }
    case 'gte':
    case 'lte':
      return { field, op: draft.op, value: draft.min }
    case 'in':
    case 'not_in':
      return {
        field,
        op: draft.op,
        value: draft.text
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      }
    default:
      return { field, op: draft.op, value: draft.text.trim() }
  }
}
