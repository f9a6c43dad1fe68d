/**
 * An http destination as its form edits it, and back to the body the API takes. Lists the form
 * shows as text (statuses, headers) are parsed here; secrets left empty are left out, so the
 * stored one stays; settings the form does not edit (the ping) go back as they were.
 */
export type RuleDraft = { status: string; path: string; equals: string; matches: string }
export type AuthDraft = {
  type: string
  username: string
  password: string
  token: string
  name: string
  value: string
  token_url: string
  client_id: string
  client_secret: string
  scope: string
  audience: string
}
export type HttpDraft = {
  method: string
  url: string
  content_type: string
  template: string
  headers: string
  timeout_ms: number | null
  auth: AuthDraft
  accepted: RuleDraft
  rejected: RuleDraft
  duplicate: RuleDraft
  reason_path: string
  buyer_lead_id_path: string
  price_path: string
  price_unit: string
}

export const STARTER_TEMPLATE = `{
  "email": "{{ contact.email }}",
  "first_name": "{{ contact.name | first_name }}",
  "last_name": "{{ contact.name | last_name }}",
  "phone": "{{ contact.phone | e164 }}",
  "postal_code": "{{ contact.postal_code }}",
  "source": "{{ provenance.source }}"
}`

type Stored = Record<string, any> | null | undefined

const ruleDraft = (rule: Stored): RuleDraft => ({
  status: (rule?.status ?? []).join(', '),
  path: rule?.path ?? '',
  equals: rule?.equals === undefined ? '' : String(rule.equals),
  matches: rule?.matches ?? '',
})

export function httpDraft(http: Stored): HttpDraft {
  const auth = http?.auth ?? {}
  const response = http?.response ?? {}
  return {
    method: http?.method ?? 'POST',
    url: http?.url ?? '',
    content_type: http?.content_type ?? 'json',
    template: http?.template ?? STARTER_TEMPLATE,
    headers: Object.entries((http?.headers ?? {}) as Record<string, string>)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    timeout_ms: http?.timeout_ms ?? null,
    auth: {
      type: auth.type ?? 'none',
      username: auth.username ?? '',
      password: '',
      token: '',
      name: auth.name ?? '',
      value: '',
      token_url: auth.token_url ?? '',
      client_id: auth.client_id ?? '',
      client_secret: '',
      scope: auth.scope ?? '',
      audience: auth.audience ?? '',
    },
    accepted: ruleDraft(response.accepted),
    rejected: ruleDraft(response.rejected),
    duplicate: ruleDraft(response.duplicate),
    reason_path: response.reason_path ?? '',
    buyer_lead_id_path: response.buyer_lead_id_path ?? '',
    price_path: response.price_path ?? '',
    price_unit: response.price_unit ?? 'cents',
  }
}

/** Only what was filled in: an empty part is no part. */
const given = (entries: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== '' && value !== undefined)
  )

function ruleBody(rule: RuleDraft) {
  const status = rule.status
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))
  return given({
    status: status.length ? status : undefined,
    path: rule.path.trim(),
    equals: rule.equals,
    matches: rule.matches,
  })
}

const AUTH_FIELDS: Record<string, (keyof AuthDraft)[]> = {
  none: [],
  basic: ['username', 'password'],
  bearer: ['token'],
  header: ['name', 'value'],
  query: ['name', 'value'],
  oauth2: ['token_url', 'client_id', 'client_secret', 'scope', 'audience'],
}

/** `ping`: the stored ping settings, sent back as they were (the portal does not edit them). */
export function httpBody(draft: HttpDraft, ping?: unknown) {
  const headers = Object.fromEntries(
    draft.headers
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const at = line.indexOf(':')
        return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()]
      })
  )
  const auth = {
    type: draft.auth.type,
    ...given(
      Object.fromEntries((AUTH_FIELDS[draft.auth.type] ?? []).map((key) => [key, draft.auth[key]]))
    ),
  }
  const optional = (rule: RuleDraft) => {
    const body = ruleBody(rule)
    return Object.keys(body).length ? body : undefined
  }
  return {
    method: draft.method,
    url: draft.url.trim(),
    content_type: draft.content_type,
    template: draft.template,
    ...(Object.keys(headers).length ? { headers } : {}),
    auth,
    ...(draft.timeout_ms ? { timeout_ms: draft.timeout_ms } : {}),
    response: {
      accepted: ruleBody(draft.accepted),
      ...given({
        rejected: optional(draft.rejected),
        duplicate: optional(draft.duplicate),
        reason_path: draft.reason_path.trim(),
        buyer_lead_id_path: draft.buyer_lead_id_path.trim(),
        price_path: draft.price_path.trim(),
      }),
      ...(draft.price_path.trim() ? { price_unit: draft.price_unit } : {}),
    },
    ...(ping ? { ping } : {}),
  }
}
