import Label from '#models/label'
import Publisher from '#models/publisher'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'

/**
 * What a compliance officer (or a compliance API key) may audit, as the
 * operator set it: leads of these publishers or of these labels' publishers,
 * in this period (`from` inclusive, `to` exclusive, UTC). A key left out does
 * not narrow; no scope at all is everything.
 */
export type ComplianceScope = {
  publishers?: string[]
  labels?: string[]
  from?: string
  to?: string
}

export type ComplianceScopeInput = {
  publishers?: string[]
  labels?: string[]
  from?: Date
  to?: Date
}

/** One condition of the scope, in SQL with `?` placeholders and their values in order. */
export type ScopeCondition = { sql: string; values: unknown[] }

/** How many publishers or labels a picker offers within a scope. */
const CHOICES = 500

/**
 * Checks the operator's input (every slug names something, the period runs
 * forwards) and gives the scope as it is stored; null when nothing narrows.
 */
export async function resolveComplianceScope(
  input: ComplianceScopeInput | null | undefined,
  field = 'scope'
): Promise<ComplianceScope | null> {
  if (!input) return null
  const errors: FieldError[] = []
  const scope: ComplianceScope = {}
  const named = [
    { key: 'publishers', model: Publisher, noun: 'publisher' },
    { key: 'labels', model: Label, noun: 'label' },
  ] as const
  for (const { key, model, noun } of named) {
    const slugs = [...new Set(input[key] ?? [])]
    if (slugs.length === 0) continue
    const rows = await model.query().whereIn('slug', slugs).select('slug')
    const found = new Set(rows.map((row) => row.slug))
    for (const slug of slugs.filter((wanted) => !found.has(wanted))) {
      errors.push({ field: `${field}.${key}`, code: 'exists', message: `No ${noun} "${slug}".` })
    }
    scope[key] = slugs
  }
  if (input.from && input.to && input.from >= input.to) {
    errors.push({
      field: `${field}.to`,
      code: 'period',
      message: 'The end of the period must come after its start.',
    })
  }
  if (errors.length) throw ApiProblem.unprocessable(errors)
  if (input.from) scope.from = input.from.toISOString()
  if (input.to) scope.to = input.to.toISOString()
  return Object.keys(scope).length ? scope : null
}

/**
 * The scope as SQL conditions over a table's publisher id and the moment that
 * places a row in the period (a lead's arrival, an audit entry's time).
 * Slug lists travel as one JSON text each, so the same conditions work bound
 * and inlined (the audit export's COPY).
 */
export function complianceConditions(
  scope: ComplianceScope | null,
  columns: { publisherId: string; at: string }
): ScopeCondition[] {
  if (!scope) return []
  const conditions: ScopeCondition[] = []
  if (scope.publishers || scope.labels) {
    conditions.push({
      sql: `${columns.publisherId} IN (SELECT sp.id FROM publishers sp LEFT JOIN labels sl ON sl.id = sp.label_id
        WHERE sp.slug IN (SELECT jsonb_array_elements_text(?::jsonb))
           OR sl.slug IN (SELECT jsonb_array_elements_text(?::jsonb)))`,
      values: [JSON.stringify(scope.publishers ?? []), JSON.stringify(scope.labels ?? [])],
    })
  }
  if (scope.from) conditions.push({ sql: `${columns.at} >= ?`, values: [new Date(scope.from)] })
  if (scope.to) conditions.push({ sql: `${columns.at} < ?`, values: [new Date(scope.to)] })
  return conditions
}

/** The publishers a scoped auditor may pick from (name order). */
export function publishersWithin(scope: ComplianceScope | null) {
  const query = Publisher.query().preload('label').orderBy('name').limit(CHOICES)
  if (scope?.publishers || scope?.labels) {
    query.where((narrow) => {
      narrow.whereIn('slug', scope.publishers ?? [])
      narrow.orWhereHas('label', (label) => label.whereIn('slug', scope.labels ?? []))
    })
  }
  return query
}

/** The labels a scoped auditor may pick from: those named, and those of the publishers named. */
export function labelsWithin(scope: ComplianceScope | null) {
  const query = Label.query().orderBy('name').limit(CHOICES)
  if (scope?.publishers || scope?.labels) {
    query.where((narrow) => {
      narrow.whereIn('slug', scope.labels ?? [])
      narrow.orWhereIn(
        'id',
        Publisher.query()
          .whereIn('slug', scope.publishers ?? [])
          .whereNotNull('label_id')
          .select('label_id')
      )
    })
  }
  return query
}
