import type { FieldError } from '#exceptions/api_problem'
import {
  CONTROL_CHARACTERS,
  type HttpDestinationConfig,
  LIMITS,
  type MoneyUnit,
  RULE_NAMES,
  type ResponseRule,
  type ResponseRules,
  type RuleName,
} from '#services/selling/http_destination'
import {
  type AnswerDocument,
  type BuyerAnswer,
  pathProblem,
  readAnswer,
  valueAt,
} from '#services/selling/answer_document'
import { regexFinds, regexProblem } from '#services/selling/buyer_regex'

export type { BuyerAnswer } from '#services/selling/answer_document'

export type AnswerClassification = {
  outcome: 'accepted' | 'rejected' | 'duplicate' | 'error'
  /** The buyer's reason (rejected, duplicate), or the error's code. */
  reason: string | null
  buyer_lead_id: string | null
  price_cents: number | null
  matched_rule: RuleName | null
  /** What was read but not believed (a negative price), for the person reading the attempt. */
  notes: string[]
}

const is2xx = (status: number) => status >= 200 && status < 300

/** Printable text of at most `max` characters: an answer's value goes into records and screens. */
function clip(value: unknown, max: number) {
  if (value === null || value === undefined) return null
  const text = String(value).replace(CONTROL_CHARACTERS, ' ').trim()
  return text === '' ? null : text.slice(0, max)
}

function holds(rule: ResponseRule, answer: BuyerAnswer, document: AnswerDocument) {
  if (rule.status ? !rule.status.includes(answer.status) : !is2xx(answer.status)) return false
  if (rule.path !== undefined) {
    const value = valueAt(document, rule.path)
    if (value === null) return false
    if (rule.equals !== undefined) return String(value) === String(rule.equals)
    if (rule.matches !== undefined) return regexFinds(rule.matches, String(value))
    return value !== '' && value !== false
  }
  if (rule.matches !== undefined) return regexFinds(rule.matches, answer.body)
  if (rule.equals !== undefined) return answer.body.trim() === String(rule.equals)
  return true
}

/**
 * An amount a buyer wrote, as integer cents: a number or numeric string in
 * cents (whole) or currency units (rounded to the cent). A negative,
 * fractional-cent, non-finite or absurd amount is no amount, with a note.
 */
export function moneyToCents(
  value: unknown,
  unit: MoneyUnit
): { cents: number | null; note: string | null } {
  if (value === null || value === undefined || value === '') return { cents: null, note: null }
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
        ? Number(value)
        : Number.NaN
  const refuse = (why: string) => ({ cents: null, note: `${clip(value, 40)} ${why}` })
  if (!Number.isFinite(number)) return refuse('is not an amount')
  if (number < 0) return refuse('is negative')
  const cents = unit === 'currency' ? Math.round(number * 100) : number
  if (!Number.isInteger(cents)) return refuse('is not a whole number of cents')
  if (cents > LIMITS.maxCents) return refuse(`is more than ${LIMITS.maxCents} cents`)
  return { cents, note: null }
}

/**
 * What a buyer's answer means, by the destination's rules: `duplicate`,
 * then `rejected`, then `accepted`, the first that holds. None holds: an
 * `error`, `http_<status>` for a non-2xx, `unrecognised_answer` otherwise.
 */
export function classifyAnswer(rules: ResponseRules, answer: BuyerAnswer): AnswerClassification {
  const document = readAnswer(answer)
  const read = (path: string | undefined, max: number) =>
    path === undefined ? null : clip(valueAt(document, path), max)
  const matched = RULE_NAMES.find((name) => {
    const rule = rules[name]
    return rule !== undefined && holds(rule, answer, document)
  })
  if (!matched) {
    const reason = is2xx(answer.status) ? 'unrecognised_answer' : `http_${answer.status}`
    return {
      outcome: 'error',
      reason,
      buyer_lead_id: null,
      price_cents: null,
      matched_rule: null,
      notes: [],
    }
  }
  const notes: string[] = []
  let priceCents: number | null = null
  if (matched === 'accepted' && rules.price_path !== undefined) {
    const price = moneyToCents(valueAt(document, rules.price_path), rules.price_unit ?? 'cents')
    priceCents = price.cents
    if (price.note) notes.push(`price_path: ${price.note}; no price taken.`)
  }
  return {
    outcome: matched,
    reason: matched === 'accepted' ? null : read(rules.reason_path, LIMITS.reasonChars),
    buyer_lead_id:
      matched === 'rejected' ? null : read(rules.buyer_lead_id_path, LIMITS.buyerLeadIdChars),
    price_cents: priceCents,
    matched_rule: matched,
    notes,
  }
}

function ruleProblems(name: RuleName, rule: ResponseRule): FieldError[] {
  const field = `http.response.${name}`
  const problems: FieldError[] = []
  if (rule.equals !== undefined && rule.matches !== undefined) {
    problems.push({
      field: `${field}.matches`,
      code: 'rule',
      message: 'Give either equals or matches, not both.',
    })
  }
  if (rule.path !== undefined) {
    const problem = pathProblem(rule.path)
    if (problem) problems.push({ field: `${field}.path`, code: 'path', message: problem })
  }
  if (rule.matches !== undefined) {
    const problem = regexProblem(rule.matches)
    if (problem) problems.push({ field: `${field}.matches`, code: 'regex', message: problem })
  }
  return problems
}

function pathProblems(paths: Record<string, string | undefined>): FieldError[] {
  return Object.entries(paths).flatMap(([field, path]) => {
    const problem = path === undefined ? null : pathProblem(path)
    return problem ? [{ field, code: 'path', message: problem }] : []
  })
}

/** What is wrong with a destination's response rules and ping paths, checked when it is saved. */
export function responseRulesProblem(config: HttpDestinationConfig): FieldError[] {
  const response = config.response
  return [
    ...RULE_NAMES.flatMap((name) => {
      const rule = response[name]
      return rule ? ruleProblems(name, rule) : []
    }),
    ...pathProblems({
      'http.response.reason_path': response.reason_path,
      'http.response.buyer_lead_id_path': response.buyer_lead_id_path,
      'http.response.price_path': response.price_path,
      'http.ping.bid_path': config.ping?.bid_path,
      'http.ping.bid_id_path': config.ping?.bid_id_path,
      'http.ping.expires_in_path': config.ping?.expires_in_path,
    }),
  ]
}
