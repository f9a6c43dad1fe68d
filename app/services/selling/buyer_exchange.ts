import type { IncomingHttpHeaders } from 'node:http'
import { uuidv7 } from 'uuidv7'
import { type HttpAnswer, HttpSender } from '#services/webhooks/http_sender'
import { AddressPolicy } from '#services/webhooks/ssrf_guard'
import { signatureHeaders } from '#services/webhooks/signing'
import webhooksConfig from '#config/webhooks'
import {
  type ContentType,
  type DestinationSecrets,
  type HttpDestinationConfig,
  type HttpMethod,
  LIMITS,
  MEDIA_TYPES,
} from '#services/selling/http_destination'
import { TemplateFailure, renderTemplate } from '#services/selling/lead_template'
import {
  AuthFailure,
  type Credentials,
  MASK,
  OAuthTokens,
  type TokenFetch,
  credentialsFor,
} from '#services/selling/buyer_auth'

const USER_AGENT = 'Leadgate/1.0'

/** How Leadgate reaches one buyer's system; `secrets` opened, never shown. */
export type HttpDestination = {
  id: string
  http: HttpDestinationConfig
  secrets: DestinationSecrets
  /** The `whsec_` secret that signs; during a rotation a list, newest first. */
  signingSecret: string | string[]
}

export type ShownRequest = {
  method: HttpMethod
  url: string
  headers: Record<string, string>
  body: string
}
export type ShownResponse = { status: number; headers: Record<string, string>; body: string }

export type SendOptions = {
  /** Signed as `webhook-id`: the sale attempt's id, so the buyer can tell a retry. A new one by default. */
  attemptId?: string
  /** The sale's time left: a post or ping never outlasts it. */
  deadlineMs?: number
}

/** One request to a buyer and its answer, or why there is none. */
export type Exchange = {
  request: ShownRequest
  answer: HttpAnswer | null
  /** No usable answer: `timeout`, `redirect`, `answer_too_large`, `connection_refused`, `template_error`... */
  failure: string | null
  /** The answer's text (up to LIMITS.answerBytes), when there is a usable one. */
  body: string
  durationMs: number
}

export type Target = {
  method: HttpMethod
  url: string
  escaping: ContentType
  contentType: ContentType
  template: string
  lead: object
  timeoutMs: number
}

function lowerCased(headers: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])
  )
}

function withQuery(url: string, pairs: [string, string][], rendered: string | null) {
  const target = new URL(url)
  let search = target.search.slice(1)
  if (rendered) search = search ? `${search}&${rendered}` : rendered
  for (const [name, value] of pairs) {
    const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`
    search = search ? `${search}&${pair}` : pair
  }
  target.search = search
  return target.toString()
}

export function shownResponse(answer: HttpAnswer): ShownResponse {
  const headers: IncomingHttpHeaders = { ...answer.headers }
  delete headers['set-cookie']
  return {
    status: answer.statusCode ?? 0,
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, [value].flat().join(', ')])
    ),
    body: answer.excerpt ?? '',
  }
}

/** Resolves with `fallback` once `ms` pass (the promise goes on, and its result is dropped). */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), Math.max(0, ms))
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error))
    )
  })
}

/**
 * The wire under posts and pings: renders, authenticates, signs and sends
 * one request through the webhooks' sender (SSRF policy, pinned address,
 * egress address, no redirects, bounded answer), and says whether the
 * answer can be read at all. What it means is the caller's (buyer_http.ts).
 */
export class BuyerExchange {
  readonly tokens: OAuthTokens
  private sender: HttpSender

  constructor(options: { clock?: () => number } = {}) {
    this.tokens = new OAuthTokens(options.clock)
    this.sender = new HttpSender({
      connectTimeoutMs: LIMITS.connectTimeoutMs,
      totalTimeoutMs: LIMITS.timeoutMs.default,
      excerptBytes: LIMITS.excerptBytes,
      userAgent: USER_AGENT,
      policy: new AddressPolicy(webhooksConfig.ssrf.allow),
      localAddress: webhooksConfig.http.sourceAddress,
    })
  }

  async exchange(destination: HttpDestination, target: Target, options: SendOptions = {}) {
    const started = performance.now()
    const left = () =>
      Math.min(target.timeoutMs, options.deadlineMs ?? Infinity) - (performance.now() - started)
    const result = (request: ShownRequest, answer: HttpAnswer | null, failure: string | null) => ({
      request,
      answer,
      failure,
      body: answer && !failure ? answer.body.toString('utf8') : '',
      durationMs: Math.round(performance.now() - started),
    })
    const unsent: ShownRequest = { method: target.method, url: target.url, headers: {}, body: '' }

    let rendered: string
    let headers: Record<string, string>
    try {
      rendered = renderTemplate(target.template, target.escaping, target.lead)
      headers = {}
      for (const [name, value] of Object.entries(destination.http.headers ?? {})) {
        headers[name] = renderTemplate(value, 'header', target.lead)
      }
    } catch (error) {
      if (error instanceof TemplateFailure) return result(unsent, null, 'template_error')
      throw error
    }

    const attemptId = options.attemptId ?? uuidv7()
    const send = async (credentials: Credentials) => {
      const isGet = target.method === 'GET'
      const url = withQuery(target.url, credentials.query, isGet ? rendered : null)
      const body = isGet ? undefined : rendered
      const signed = isGet ? new URL(url).search.slice(1) : rendered
      const secrets = [destination.signingSecret].flat()
      const sentHeaders = {
        'user-agent': USER_AGENT,
        ...(isGet ? {} : { 'content-type': MEDIA_TYPES[target.contentType] }),
        ...lowerCased(headers),
        ...lowerCased(credentials.headers),
        ...signatureHeaders(secrets, attemptId, Math.floor(Date.now() / 1000), signed),
      }
      const shown: ShownRequest = {
        method: target.method,
        // The mask as itself, not percent-encoded: it is for reading.
        url: withQuery(target.url, credentials.shown.query, isGet ? rendered : null).replaceAll(
          encodeURIComponent(MASK),
          MASK
        ),
        headers: { ...sentHeaders, ...lowerCased(credentials.shown.headers) },
        body: body ?? '',
      }
      const total = left()
      if (total <= 0) return { shown, answer: null }
      const answer = await this.sender.request(url, {
        method: target.method,
        headers: sentHeaders,
        body,
        totalTimeoutMs: total,
        connectTimeoutMs: Math.min(LIMITS.connectTimeoutMs, total),
        maxBytes: LIMITS.answerBytes,
      })
      return { shown, answer, total }
    }

    let credentials = await this.credentials(destination, left())
    if (typeof credentials === 'string') return result(unsent, null, credentials)
    let sent = await send(credentials)
    if (sent.answer?.statusCode === 401 && credentials.oauth) {
      // The token may have been revoked early: one new token, one more try.
      this.tokens.forget(credentials.oauth.key, credentials.oauth.token)
      credentials = await this.credentials(destination, left())
      if (typeof credentials === 'string') return result(sent.shown, null, credentials)
      sent = await send(credentials)
    }
    return result(sent.shown, sent.answer, failureOf(sent.answer, sent.total ?? 0))
  }

  private async credentials(destination: HttpDestination, ms: number) {
    const fetch: TokenFetch = async (url, init) => {
      const answer = await this.sender.request(url, {
        method: 'POST',
        headers: init.headers as Record<string, string>,
        body: String(init.body),
        totalTimeoutMs: destination.http.timeout_ms ?? LIMITS.timeoutMs.default,
        maxBytes: 64 * 1024,
      })
      if (answer.statusCode === null || answer.truncated) {
        throw Object.assign(new Error('no answer'), { code: answer.error ?? 'answer_too_large' })
      }
      return new Response(new Uint8Array(answer.body), {
        status: answer.statusCode,
        headers: shownResponse(answer).headers,
      })
    }
    try {
      const pending = credentialsFor(
        { id: destination.id, auth: destination.http.auth, secrets: destination.secrets },
        { tokens: this.tokens, fetch, allowHttp: !webhooksConfig.ssrf.requireHttps }
      )
      return await within<Credentials | 'timeout'>(pending, ms, 'timeout')
    } catch (error) {
      if (error instanceof AuthFailure) return error.code
      throw error
    }
  }

  close() {
    this.sender.close()
  }
}

/** Why an answer cannot be read, or null when it can. */
function failureOf(answer: HttpAnswer | null, totalTimeoutMs: number): string | null {
  if (!answer) return 'timeout'
  if (answer.statusCode === null) return answer.error ?? 'network_error'
  if (answer.statusCode >= 300 && answer.statusCode < 400) return 'redirect'
  if (answer.truncated) return 'answer_too_large'
  if (!answer.complete) return answer.latencyMs >= totalTimeoutMs ? 'timeout' : 'connection_reset'
  return null
}
