import type { Data } from '@generated/data'

/** A destination's kind in the portal's words. */
export const KIND_WORDS: Record<string, string> = {
  webhook: 'Webhook',
  http: 'Your system (HTTP)',
  email: 'E-mail',
  crm: 'CRM',
}

/** Where a destination's leads go, in a few words: its URL, address or CRM. */
export function whereItGoes(destination: Data.Destination) {
  if (destination.kind === 'http' && destination.http) {
    return `${String(destination.http.method)} ${String(destination.http.url)}`
  }
  if (destination.kind === 'email' && destination.email) return String(destination.email.to)
  if (destination.kind === 'crm' && destination.crm) return String(destination.crm.plugin)
  return 'Your webhook endpoints (match.found)'
}

/** An attempt's or a test's outcome in words. */
export const OUTCOME_WORDS: Record<string, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Duplicate',
  timeout: 'Timed out',
  error: 'Error',
  pending: 'Pending',
}
