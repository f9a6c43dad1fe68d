import {
  LIMITS,
  bodyEscapingOf,
  pingTimeoutOf,
  timeoutOf,
} from '#services/selling/http_destination'
import type { BuyerLead, PingLead } from '#services/selling/buyer_lead'
import { classifyAnswer, moneyToCents } from '#services/selling/response_rules'
import { readAnswer, valueAt } from '#services/selling/answer_document'
import {
  BuyerExchange,
  type Exchange,
  type HttpDestination,
  type SendOptions,
  type ShownRequest,
  type ShownResponse,
  shownResponse,
} from '#services/selling/buyer_exchange'

export type {
  HttpDestination,
  SendOptions,
  ShownRequest,
  ShownResponse,
} from '#services/selling/buyer_exchange'

export type PostOutcome = 'accepted' | 'rejected' | 'duplicate' | 'timeout' | 'error'

/** One post of a lead into a buyer's system, as a `sale_attempts` row and the test endpoint show it. */
export type PostResult = {
  /** What was sent, secrets masked. */
  request: ShownRequest
  /** What came back (its first 20 KB), or null when nothing did. */
  response: ShownResponse | null
  outcome: PostOutcome
  reason: string | null
  buyer_lead_id: string | null
  price_cents: number | null
  duration_ms: number
  /** Set when outcome is `error` or `timeout`: `http_503`, `redirect`, `unrecognised_answer`... */
  error_code: string | null
  notes: string[]
}

export type PingResult = {
  request: ShownRequest
  response: ShownResponse | null
  outcome: 'bid' | 'no_bid'
  /** Why there is no bid: `no_bid`, `zero_bid`, `bad_bid`, `missing_bid_id`, `timeout`, `http_500`... */
  reason: string | null
  bid_cents: number | null
  bid_id: string | null
  /** How long the buyer holds its bid, when it says so. */
  expires_in_seconds: number | null
  duration_ms: number
  error_code: string | null
}

const TIMEOUTS = new Set(['timeout', 'connect_timeout'])

const common = (exchange: Exchange) => ({
  request: exchange.request,
  response: exchange.answer?.statusCode ? shownResponse(exchange.answer) : null,
  duration_ms: exchange.durationMs,
})

function postResult(exchange: Exchange, destination: HttpDestination): PostResult {
  if (exchange.failure) {
    return {
      ...common(exchange),
      outcome: TIMEOUTS.has(exchange.failure) ? 'timeout' : 'error',
      reason: exchange.failure,
      buyer_lead_id: null,
      price_cents: null,
      error_code: exchange.failure,
      notes: [],
    }
  }
  const answer = exchange.answer!
  const read = classifyAnswer(destination.http.response, {
    status: answer.statusCode!,
    contentType: [answer.headers['content-type'] ?? null].flat()[0],
    body: exchange.body,
  })
  return {
    ...common(exchange),
    outcome: read.outcome,
    reason: read.reason,
    buyer_lead_id: read.buyer_lead_id,
    price_cents: read.price_cents,
    error_code: read.outcome === 'error' ? read.reason : null,
    notes: read.notes,
  }
}

function pingResult(exchange: Exchange, destination: HttpDestination): PingResult {
  const ping = destination.http.ping!
  const noBid = (reason: string, errorCode: string | null = null): PingResult => ({
    ...common(exchange),
    outcome: 'no_bid',
    reason,
    bid_cents: null,
    bid_id: null,
    expires_in_seconds: null,
    error_code: errorCode,
  })
  if (exchange.failure) return noBid(exchange.failure, exchange.failure)
  const status = exchange.answer!.statusCode!
  if (status === 204) return noBid('no_bid')
  if (status < 200 || status >= 300) return noBid(`http_${status}`, `http_${status}`)

  const document = readAnswer({
    contentType: [exchange.answer!.headers['content-type'] ?? null].flat()[0],
    body: exchange.body,
  })
  const bid = valueAt(document, ping.bid_path)
  if (bid === null || bid === '') return noBid('no_bid')
  const { cents } = moneyToCents(bid, ping.bid_unit ?? 'cents')
  if (cents === null) return noBid('bad_bid')
  if (cents === 0) return noBid('zero_bid')
  const bidId = valueAt(document, ping.bid_id_path)
  if (bidId === null || bidId === '' || typeof bidId === 'boolean') return noBid('missing_bid_id')
  const expiresIn =
    ping.expires_in_path === undefined ? null : Number(valueAt(document, ping.expires_in_path))
  return {
    ...common(exchange),
    outcome: 'bid',
    reason: null,
    bid_cents: cents,
    bid_id: String(bidId).slice(0, LIMITS.bidIdChars),
    expires_in_seconds:
      expiresIn !== null && Number.isFinite(expiresIn) && expiresIn > 0
        ? Math.min(Math.floor(expiresIn), LIMITS.maxExpiresInSeconds)
        : null,
    error_code: null,
  }
}

/**
 * Posts and pings into buyers' own systems (docs/selling.md). One per
 * process: its sockets are kept alive per buyer host, and OAuth tokens are
 * cached in its memory.
 */
export class BuyerTransport {
  private wire: BuyerExchange

  constructor(options: { clock?: () => number } = {}) {
    this.wire = new BuyerExchange(options)
  }

  /** Renders the destination's template over the lead, sends it, and reads the answer by its rules. */
  async post(
    destination: HttpDestination,
    lead: BuyerLead,
    options?: SendOptions
  ): Promise<PostResult> {
    const { http } = destination
    const exchange = await this.wire.exchange(
      destination,
      {
        method: http.method,
        url: http.url,
        escaping: bodyEscapingOf(http),
        contentType: http.content_type,
        template: http.template,
        lead,
        timeoutMs: timeoutOf(http),
      },
      options
    )
    return postResult(exchange, destination)
  }

  /** Asks the buyer to bid on the partial lead: POSTed as the destination's content type. */
  async ping(
    destination: HttpDestination,
    lead: PingLead,
    options?: SendOptions
  ): Promise<PingResult> {
    const { http } = destination
    if (!http.ping) throw new Error(`Destination ${destination.id} takes no pings`)
    const exchange = await this.wire.exchange(
      destination,
      {
        method: 'POST',
        url: http.ping.url,
        escaping: http.content_type,
        contentType: http.content_type,
        template: http.ping.template,
        lead,
        timeoutMs: pingTimeoutOf(http.ping),
      },
      options
    )
    return pingResult(exchange, destination)
  }

  close() {
    this.wire.close()
  }
}

let shared: BuyerTransport | null = null

/** The process's transport. */
export function buyerTransport() {
  return (shared ??= new BuyerTransport())
}

export const postLead = (destination: HttpDestination, lead: BuyerLead, options?: SendOptions) =>
  buyerTransport().post(destination, lead, options)

export const pingLead = (destination: HttpDestination, lead: PingLead, options?: SendOptions) =>
  buyerTransport().ping(destination, lead, options)
