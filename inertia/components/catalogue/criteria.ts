import type { Criterion } from '~/components/catalogue/types'

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
export function fromDraft(draft: CriterionDraft): Criterion {
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
