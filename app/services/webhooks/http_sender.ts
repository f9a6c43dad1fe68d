import http from 'node:http'
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
 * One POST, as docs/webhooks.md ("Delivery and retries") promises it: redirects are not followed (Node's
 * client never follows them, and a 3xx is not a 2xx), connect and total
 * timeouts, the first bytes of the answer kept, and every connection pinned
 * to an address the SSRF policy checked.
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
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const url = new URL(target)
    try {
      assertLiteralAllowed(url, this.options.policy)
    } catch (error) {
      return Promise.resolve(failure(error, elapsed()))
    }

    return new Promise((resolve) => {
      let settled = false
      let connectTimer: NodeJS.Timeout | undefined
      const finish = (outcome: SendOutcome) => {
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
        method: 'POST',
        agent: this.agents[url.protocol as 'http:' | 'https:'],
        lookup: this.lookup as any,
        localAddress: this.options.localAddress ?? undefined,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': this.options.userAgent,
          ...headers,
        },
      })

      const totalTimer = setTimeout(
        () => request.destroy(new Timeout('total', this.options.totalTimeoutMs)),
        this.options.totalTimeoutMs
      )
      request.on('socket', (socket) => {
        if (!socket.connecting) return
        connectTimer = setTimeout(
          () => request.destroy(new Timeout('connect', this.options.connectTimeoutMs)),
          this.options.connectTimeoutMs
        )
        socket.once('connect', () => clearTimeout(connectTimer))
      })

      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0
        const retryAfterMs = parseRetryAfter(response.headers['retry-after'] as string | undefined)
        const chunks: Buffer[] = []
        let kept = 0
        const done = () => {
          const ok = statusCode >= 200 && statusCode < 300
          finish({
            ok,
            statusCode,
            timedOut: false,
            retryAfterMs,
            latencyMs: elapsed(),
            excerpt: excerptOf(chunks),
            error: ok ? null : `http_${statusCode}`,
            errorDetail: null,
          })
        }
        response.on('data', (chunk: Buffer) => {
          const room = this.options.excerptBytes - kept
          if (room > 0) {
            chunks.push(chunk.subarray(0, room))
            kept += Math.min(room, chunk.length)
          }
          // The rest of a large answer is not worth the wait: the status decided.
          if (kept >= this.options.excerptBytes) response.destroy()
        })
        response.on('end', done)
        response.on('close', done)
        response.on('error', done)
      })
      request.on('error', (error) => finish(failure(error, elapsed())))
      request.end(body)
    })
  }

  close() {
    this.agents['http:'].destroy()
    this.agents['https:'].destroy()
  }
}

function excerptOf(chunks: Buffer[]) {
  if (chunks.length === 0) return null
  // Postgres text refuses NUL; the excerpt is for reading, not a byte-exact copy.
  return Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '')
}

function failure(error: unknown, latencyMs: number): SendOutcome {
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
