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

/** What a test's outcome would mean in a sale. */
export const OUTCOME_HINTS: Record<string, string> = {
  accepted: 'a sale: you took the lead',
  rejected: 'you turned it down: the lead goes to the next buyer',
  duplicate: 'you already have it: the lead goes to the next buyer',
  timeout: 'no answer in time: the lead goes to the next buyer',
  error: 'no rule read your answer, or it failed: the lead goes to the next buyer',
}
