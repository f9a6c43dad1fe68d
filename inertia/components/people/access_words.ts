import type { Data } from '@generated/data'

/** How the portals say who a user is and what it may do. */
export const ROLE_WORDS: Record<string, string> = {
  operator_admin: 'Operator',
  compliance_officer: 'Compliance officer',
  publisher_user: 'Publisher user',
  buyer_user: 'Buyer user',
  label_manager: 'Label manager',
}

/** A publisher user delivers (submit), reads reports (read) or both. */
export const ACCESS_CHOICES = [
  { value: 'both', label: 'Deliver leads and see reports', permissions: ['read', 'submit'] },
  { value: 'submit', label: 'Deliver leads only', permissions: ['submit'] },
  { value: 'read', label: 'See reports only', permissions: ['read'] },
] as const

export type AccessChoice = (typeof ACCESS_CHOICES)[number]['value']

export function accessOf(permissions: string[]): AccessChoice {
  const reads = permissions.includes('read')
  const submits = permissions.includes('submit')
  return reads && submits ? 'both' : submits ? 'submit' : 'read'
}

export function accessWords(permissions: string[]) {
  const reads = permissions.includes('read')
  const submits = permissions.includes('submit')
  if (reads && submits) return 'Delivery and reporting'
  if (submits) return 'Delivery only'
  if (reads) return 'Reporting only'
  return 'No access'
}

export function permissionsOf(choice: AccessChoice): string[] {
  return [...(ACCESS_CHOICES.find((access) => access.value === choice)?.permissions ?? [])]
}

/** A compliance officer's limits (null: everything). */
export type ComplianceScope = Data.User['scope']

/** The scope as a form holds it: days as 'YYYY-MM-DD', empty lists and '' for "any". */
export type ScopeForm = { publishers: string[]; labels: string[]; from: string; to: string }

/** A compliance officer's limits in one line: "Publishers acme · from 1 Jan 2026". */
export function scopeWords(scope: ComplianceScope) {
  if (!scope) return 'Everything'
  const parts: string[] = []
  if (scope.publishers?.length) parts.push(`Publishers ${scope.publishers.join(', ')}`)
  if (scope.labels?.length) parts.push(`Labels ${scope.labels.join(', ')}`)
  if (scope.from) parts.push(`from ${scope.from.slice(0, 10)}`)
  if (scope.to) parts.push(`before ${scope.to.slice(0, 10)}`)
  return parts.join(' · ') || 'Everything'
}

/** A user in the portal's list: its last sign-in, a pending invitation, whose user it is. */
export type UserRow = Data.User.Variants['withActivity']

export type Choices = {
  publishers: { id: string; slug: string; name: string }[]
  buyers: { id: string; name: string }[]
  labels: { slug: string; name: string }[]
}

/** A user's state: revoked, still to accept its invitation, or active. */
export function statusOf(user: UserRow) {
  if (user.disabled) return 'disabled'
  if (user.invitation_pending) return 'invited'
  return 'active'
}

/** One entry of the access log, as GET /v1/access-logs answers it. */
export type AccessLogEntry = Data.AccessLog
