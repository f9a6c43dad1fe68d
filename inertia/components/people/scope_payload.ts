import type { ComplianceScope, ScopeForm } from '~/components/people/access_words'

export const emptyScope = (): ScopeForm => ({ publishers: [], labels: [], from: '', to: '' })

/** The form as the API takes it: only what narrows; null when nothing does. */
export function scopePayload(form: ScopeForm) {
  const scope = {
    ...(form.publishers.length ? { publishers: form.publishers } : {}),
    ...(form.labels.length ? { labels: form.labels } : {}),
    ...(form.from ? { from: form.from } : {}),
    ...(form.to ? { to: form.to } : {}),
  }
  return Object.keys(scope).length ? scope : null
}

/** A stored scope back in the form. */
export function scopeForm(scope: ComplianceScope): ScopeForm {
  return {
    publishers: scope?.publishers ?? [],
    labels: scope?.labels ?? [],
    from: scope?.from?.slice(0, 10) ?? '',
    to: scope?.to?.slice(0, 10) ?? '',
  }
}
