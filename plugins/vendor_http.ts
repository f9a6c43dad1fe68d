import { PluginFailure } from '#plugins/contract'
import { guardedFetch } from '#services/webhooks/ssrf_guard'

/** HubSpot's own answer budget, and a fair one for every vendor: an attempt never hangs a worker. */
const TIMEOUT_MS = 10_000

/**
 * One JSON call to a vendor's API. A non-2xx answer (or no answer) throws
 * PluginFailure with the status and Retry-After, which the delivery job turns
 * into its retry decision like a webhook receiver's answer.
 */
export async function vendorJson(
  url: string,
  init: {
    method?: string
    headers?: Record<string, string>
    body?: unknown
    form?: URLSearchParams
  }
): Promise<any> {
  let response: Response
  try {
    // api_base and login URLs are the operator's settings: dialled under the webhooks' SSRF policy.
    response = await guardedFetch(url, {
      method: init.method ?? (init.body || init.form ? 'POST' : 'GET'),
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: init.form
        ? init.form.toString()
        : init.body !== undefined
          ? JSON.stringify(init.body)
          : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (error) {
    // A refused address is not "no answer": the transport logs it as ssrf_refused.
    if ((error as { code?: string })?.code === 'ssrf_refused') throw error
    throw new PluginFailure(`no answer from ${new URL(url).host}: ${(error as Error).message}`)
  }
  const text = await response.text()
  if (!response.ok) {
    throw new PluginFailure(`${new URL(url).pathname} answered ${response.status}`, {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      excerpt: text.slice(0, 2000),
      rateLimitHeaders: Object.fromEntries(
        [...response.headers.entries()].filter(([name]) => name.includes('ratelimit'))
      ),
    })
  }
  return text ? JSON.parse(text) : null
}

/** The value at a dotted path of the lead (`contact.email`, `attributes.kwh`). */
export function valueAt(lead: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as any)[key] : undefined),
      lead
    )
}

/** Remote fields from a mapping (remote name → lead path); empty values are left out. */
export function mapFields(lead: Record<string, unknown>, mapping: Record<string, string>) {
  const fields: Record<string, string> = {}
  for (const [remote, path] of Object.entries(mapping)) {
    const value = valueAt(lead, path)
    if (value !== undefined && value !== null && value !== '') fields[remote] = String(value)
  }
  return fields
}
