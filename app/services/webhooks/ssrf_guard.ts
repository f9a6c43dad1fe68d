import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import ipaddr from 'ipaddr.js'
import webhooksConfig from '#config/webhooks'
import type { FieldError } from '#exceptions/api_problem'

export type ResolvedAddress = { address: string; family: number }
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true })

/** A dial refused because the host is (or resolves to) an address Leadgate must not reach. */
export class SsrfRefused extends Error {
  readonly code = 'ssrf_refused'
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string
  ) {
    super(`${host} resolves to ${address} (${range}), which webhooks may not reach`)
  }
}

type Block = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** ::/96, where an IPv6 address only wraps an IPv4 one (RFC 4291 §2.5.5.1, deprecated). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')

/**
 * Which addresses a webhook may reach: public unicast only, plus what the
 * allowlist names. ipaddr.js classifies loopback, private, link-local, CGNAT,
 * unique-local, IPv4-mapped, NAT64, 6to4, multicast and reserved space; all
 * of them are refused. A mapped address matches only a mapped allowlist
 * entry, so allowing 127.0.0.1 does not open ::ffff:127.0.0.1.
 */
export class AddressPolicy {
  private readonly blocks: Block[]

  constructor(allow: string[]) {
    this.blocks = allow.map((entry) =>
      entry.includes('/') ? ipaddr.parseCIDR(entry) : wholeAddress(entry)
    )
  }

  /** The range that refuses the address, or null when it may be dialled. */
  refusal(address: string): string | null {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6
    try {
      parsed = ipaddr.parse(address)
    } catch {
      return 'invalid'
    }
    if (
      this.blocks.some(
        ([network, bits]) => network.kind() === parsed.kind() && parsed.match(network as any, bits)
      )
    ) {
      return null
    }
    const range = parsed.range()
    // ::a9fe:a9fe is 169.254.169.254 in the deprecated IPv4-compatible form; ipaddr.js calls it unicast.
    if (range === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) {
      return 'ipv4Compatible'
    }
    return range === 'unicast' ? null : range
  }
}

function wholeAddress(entry: string): Block {
  const address = ipaddr.parse(entry)
  return [address, address.kind() === 'ipv4' ? 32 : 128]
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL) {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

type SaveCheck = {
  policy: AddressPolicy
  requireHttps: boolean
  resolveTimeoutMs: number
  resolver?: Resolver
}

/**
 * The check when an endpoint is saved. A literal address or a name that
 * resolves to a refused address is an error; a name that does not resolve
 * (yet) is accepted, since every dial checks again.
 */
export async function urlProblem(text: string, options: SaveCheck): Promise<FieldError | null> {
  const problem = (code: string, message: string) => ({ field: 'url', code, message })
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return problem('url', 'Use an absolute http(s) URL.')
  }
  if (url.protocol !== 'https:' && (url.protocol !== 'http:' || options.requireHttps)) {
    return problem(
      'https_required',
      options.requireHttps ? 'Endpoints must use https.' : 'Use an http or https URL.'
    )
  }
  if (url.username || url.password) {
    return problem(
      'url_credentials',
      'Put no credentials in the URL; verify deliveries with the signing secret instead.'
    )
  }
  const host = hostOf(url)
  let addresses: ResolvedAddress[]
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }]
  } else {
    addresses = await withTimeout(
      (options.resolver ?? systemResolver)(host),
      options.resolveTimeoutMs
    ).catch(() => [])
  }
  for (const { address } of addresses) {
    const range = options.policy.refusal(address)
    if (range) {
      return problem(
        'forbidden_address',
        `${host} is a ${range} address (${address}); webhooks only reach public addresses.`
      )
    }
  }
  return null
}

/**
 * A `lookup` for http.request that resolves, refuses any forbidden answer and
 * pins the connection to the address it checked, so a DNS answer that changes
 * between the check and the connect (rebinding) cannot redirect the request.
 */
export function pinnedLookup(policy: AddressPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: (...args: any[]) => void) => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          return callback(
            Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' })
          )
        }
        for (const { address } of addresses) {
          const range = policy.refusal(address)
          if (range) return callback(new SsrfRefused(hostname, address, range))
        }
        const pinned = addresses[0]
        if (options?.all) return callback(null, [pinned])
        callback(null, pinned.address, pinned.family)
      },
      (error) => callback(error)
    )
  }
}

/** Node skips `lookup` for literal addresses, so those are checked before the dial. */
export function assertLiteralAllowed(url: URL, policy: AddressPolicy) {
  const host = hostOf(url)
  if (!net.isIP(host)) return
  const range = policy.refusal(host)
  if (range) throw new SsrfRefused(host, host, range)
}

/**
 * A `fetch` for other domains' outbound calls to operator-set URLs (the CRM
 * adapters' `api_base`, a login URL): the same policy and dial-time pinning
 * as a webhook delivery, so a label's settings cannot point Leadgate at the
 * metadata service or the internal network. Node's own http client, since
 * the global fetch takes no `lookup`; redirects are never followed. A
 * refused address throws SsrfRefused (`code: 'ssrf_refused'`) before any
 * socket is opened.
 */
export async function guardedFetch(
  target: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }
): Promise<Response> {
  const url = new URL(target)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${url.protocol} is not an http(s) URL`)
  }
  const policy = new AddressPolicy(webhooksConfig.ssrf.allow)
  assertLiteralAllowed(url, policy)
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers:
          init.body === undefined
            ? init.headers
            : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        signal: init.signal,
        lookup: pinnedLookup(policy) as any,
        localAddress: webhooksConfig.http.sourceAddress ?? undefined,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(response.headers)) {
            for (const item of [value ?? []].flat()) headers.append(name, item)
          }
          const status = response.statusCode ?? 502
          const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks)
          resolve(new Response(body, { status, headers }))
        })
      }
    )
    request.on('error', reject)
    request.end(init.body)
  })
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error))
    )
  })
}
