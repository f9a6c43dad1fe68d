import { PluginFailure, type PluginHttp, type PluginRequest } from '#plugins/contract'
import { guardedFetch } from '#services/webhooks/ssrf_guard'

/** HubSpot's own answer budget, and a fair one for every vendor: an attempt never hangs a worker. */
const VENDOR_TIMEOUT_MS = 10_000

/**
 * One JSON call to a vendor's API. A non-2xx answer (or no answer) throws
 * PluginFailure with the status and Retry-After, which the delivery job turns
 * into its retry decision like a webhook receiver's.
 */
async function json(url: string, request: PluginRequest = {}): Promise<any> {
  let response: Response
  try {
    // api_base and login URLs are the operator's settings: dialled under the webhooks' SSRF policy.
    response = await guardedFetch(url, {
      method: request.method ?? (request.body || request.form ? 'POST' : 'GET'),
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...request.headers,
      },
      body: request.form
        ? request.form.toString()
        : request.body !== undefined
          ? JSON.stringify(request.body)
          : undefined,
      signal: AbortSignal.timeout(VENDOR_TIMEOUT_MS),
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

/** The HTTP client every adapter gets on its context (`context.http`). */
export const pluginHttp: PluginHttp = { json }
