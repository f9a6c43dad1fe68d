import type { LeadInput, Normalised } from '#services/quality/types'

/** The groups a rule may name: `contact.email`, `provenance.source`, `attributes.age`... */
const GROUPS = ['contact', 'provenance', 'consent', 'attributes'] as const

/**
 * The raw value at a dotted path. Only own properties are read, so a path
 * like `contact.__proto__` finds nothing instead of the prototype.
 */
export function valueAt(lead: LeadInput, path: string): unknown {
  const [group, key, ...rest] = path.split('.')
  if (!key || rest.length > 0 || !(GROUPS as readonly string[]).includes(group)) return undefined
  const container = (lead as Record<string, unknown>)[group]
  if (!container || typeof container !== 'object' || !Object.hasOwn(container, key))
    return undefined
  return (container as Record<string, unknown>)[key]
}

const NORMALISED_CONTACT: Record<string, keyof Normalised> = {
  'contact.email': 'email',
  'contact.phone': 'phone',
  'contact.country': 'country',
  'contact.postal_code': 'postal_code',
}

/**
 * What target-audience criteria compare: the normalised contact value where
 * one exists (so `contact.country eq NL` holds for a defaulted country and a
 * phone prefix matches E.164), the raw value otherwise.
 */
export function comparableValueAt(lead: LeadInput, normalised: Normalised, path: string): unknown {
  const key = NORMALISED_CONTACT[path]
  return (key ? normalised[key] : undefined) ?? valueAt(lead, path)
}

export function isBlank(value: unknown) {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
}
