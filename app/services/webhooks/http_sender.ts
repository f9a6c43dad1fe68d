import http, { type IncomingHttpHeaders } from 'node:http'
import https from 'node:https'
import type { SendResult } from '#services/webhooks/retry_policy'
import { parseRetryAfter } from '#services/webhooks/retry_policy'
import {
  type AddressPolicy,
  type Resolver,
  SsrfRefused,
  assertLiteralAllowed,
  hostOf,
  pinnedLookup,
} from '#services/webhooks/ssrf_guard'

export type SendOutcome = SendResult & {
  latencyMs: number
  excerpt: string | null
  /** A stable code: `http_503`, `timeout`, `connect_timeout`, `connection_refused`, `ssrf_refused`... */
  error: string | null
  errorDetail: string | null
}

/** One request: the webhooks' POST of JSON by default; buyers' systems also take PUT, GET and other bodies. */
export type SendRequest = {
  method?: 'POST' | 'PUT' | 'GET'
  /** Override the defaults (`content-type: application/json`, the user agent); names in any case. */
  headers: Record<string, string>
  /** None for a GET. */
  body?: string
  connectTimeoutMs?: number
  totalTimeoutMs?: number
  /** Bytes of the answer read (default: the excerpt's); past them the socket is destroyed. */
  maxBytes?: number
}

/** What `request` adds to an outcome: the answer itself, read up to `maxBytes`. */
export type HttpAnswer = SendOutcome & {
  headers: IncomingHttpHeaders
  body: Buffer
  /** The answer was longer than `maxBytes`: `body` is its beginning, the rest was never read. */
  truncated: boolean
  bytesRead: number
  /** The answer ended as its framing said (false: cut by a timeout, the peer or `maxBytes`). */
  complete: boolean
}

export type SenderOptions = {
  connectTimeoutMs: number
  totalTimeoutMs: number
  excerptBytes: number
  userAgent: string
  policy: AddressPolicy
  resolver?: Resolver
  /** The local address to send from (an egress address of the deployment); null: the system's choice. */
  localAddress?: string | null
}

class Timeout extends Error {
  constructor(
    readonly phase: 'connect' | 'total',
    ms: number
  ) {
    super(
      phase === 'connect' ? `no connection within ${ms} ms` : `no complete answer within ${ms} ms`
    )
  }
}

/**
 * One request, as docs/webhooks.md ("Delivery and retries") promises it: redirects are not followed (Node's
 * client never follows them, and a 3xx is not a 2xx), connect and total
 * timeouts, the first bytes of the answer kept, and every connection pinned
 * to an address the SSRF policy checked. Webhooks `send` a POST; selling's
 * posts into buyers' systems (docs/selling.md) make a `request`.
 */
export class HttpSender {
  private readonly lookup
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  }

  constructor(private options: SenderOptions) {
    this.lookup = pinnedLookup(options.policy, options.resolver)
  }

  send(target: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    return this.request(target, { headers, body })
  }

  request(target: string, sent: SendRequest): Promise<HttpAnswer> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const connectTimeoutMs = sent.connectTimeoutMs ?? this.options.connectTimeoutMs
    const totalTimeoutMs = sent.totalTimeoutMs ?? this.options.totalTimeoutMs
    const maxBytes = sent.maxBytes ?? this.options.excerptBytes
    const url = new URL(target)
    try {
      assertLiteralAllowed(url, this.options.policy)
    } catch (error) {
      return Promise.resolve(failure(error, elapsed()))
    }

    return new Promise((resolve) => {
      let settled = false
      let connectTimer: NodeJS.Timeout | undefined
      const finish = (outcome: HttpAnswer) => {
        if (settled) return
        settled = true
        clearTimeout(totalTimer)
        clearTimeout(connectTimer)
        resolve(outcome)
      }

      const client = url.protocol === 'https:' ? https : http
      const request = client.request({
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: sent.method ?? 'POST',
        agent: this.agents[url.protocol as 'http:' | 'https:'],
        lookup: this.lookup as any,
        localAddress: this.options.localAddress ?? undefined,
        headers: {
          ...(sent.body === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(sent.body)),
              }),
          'user-agent': this.options.userAgent,
          ...sent.headers,
        },
      })

      const totalTimer = setTimeout(
        () => request.destroy(new Timeout('total', totalTimeoutMs)),
        totalTimeoutMs
      )
      request.on('socket', (socket) => {
        if (!socket.connecting) return
        connectTimer = setTimeout(
          () => request.destroy(new Timeout('connect', connectTimeoutMs)),
          connectTimeoutMs
        )
        socket.once('connect', () => clearTimeout(connectTimer))
      })

      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0
        const retryAfterMs = parseRetryAfter(response.headers['retry-after'] as string | undefined)
        const chunks: Buffer[] = []
        let bytesRead = 0
        let truncated = false
        const done = () => {
          const ok = statusCode >= 200 && statusCode < 300
          const body = Buffer.concat(chunks)
          finish({
            ok,
            statusCode,
            timedOut: false,
            retryAfterMs,
            latencyMs: elapsed(),
            excerpt: excerptOf(body.subarray(0, this.options.excerptBytes)),
            error: ok ? null : `http_${statusCode}`,
            errorDetail: null,
            headers: response.headers,
            body,
            truncated,
            bytesRead,
            complete: response.complete,
          })
        }
        response.on('data', (chunk: Buffer) => {
          const room = maxBytes - bytesRead
          bytesRead += chunk.length
          if (room > 0) chunks.push(chunk.subarray(0, room))
          // The rest of a large answer is not worth the wait (nor the memory): what was read decides.
          if (bytesRead > maxBytes) {
            truncated = true
            response.destroy()
          }
        })
        response.on('end', done)
        response.on('close', done)
        response.on('error', done)
      })
      request.on('error', (error) => finish(failure(error, elapsed())))
      request.end(sent.body)
    })
  }

  close() {
    this.agents['http:'].destroy()
    this.agents['https:'].destroy()
  }
}

function excerptOf(bytes: Buffer) {
  if (bytes.length === 0) return null
  // Postgres text refuses NUL; the excerpt is for reading, not a byte-exact copy.
  return bytes.toString('utf8').replaceAll('\u0000', '')
}

function failure(error: unknown, latencyMs: number): HttpAnswer {
  const code = errorCode(error)
  return {
    ok: false,
    statusCode: null,
    timedOut: error instanceof Timeout,
    retryAfterMs: null,
    latencyMs,
    excerpt: null,
    error: code,
    errorDetail: String((error as Error)?.message ?? error).slice(0, 500),
    headers: {},
    body: Buffer.alloc(0),
    truncated: false,
    bytesRead: 0,
    complete: false,
  }
}

function errorCode(error: unknown) {
  if (error instanceof SsrfRefused) return 'ssrf_refused'
  if (error instanceof Timeout) return error.phase === 'connect' ? 'connect_timeout' : 'timeout'
  const code = String((error as NodeJS.ErrnoException)?.code ?? '')
  if (code === 'ECONNREFUSED') return 'connection_refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns_error'
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset'
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'))
    return 'tls_error'
  return 'network_error'
}
