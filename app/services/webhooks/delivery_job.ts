import { DelayedError, type Job, type Queue } from 'bullmq'
import type { Logger } from '@adonisjs/core/logger'
import type { HttpSender } from '#services/webhooks/http_sender'
import type { TokenBucket } from '#services/webhooks/rate_limiter'
import { signatureHeaders } from '#services/webhooks/signing'
import { signingSecrets } from '#services/webhooks/secrets'
import { sendThroughPlugin } from '#services/webhooks/plugin_endpoints'
import {
  type ClaimedDelivery,
  claimDelivery,
  recordAttempt,
  releaseDelivery,
  settleForDisabledEndpoint,
  startTrial,
  waitsForEarlier,
} from '#services/webhooks/delivery_attempt'

export type DeliveryJobData = {
  deliveryId: string
  endpointId: string
  /** The attempt this job makes; with the delivery id it is the job id. */
  attempt: number
  /** The endpoint's rate, requests per second. */
  rate: number
}

export const DELIVERY_JOB = 'deliver'

/** BullMQ job ids may not contain `:`; `<delivery id>.<attempt>` keeps re-dispatch idempotent. */
export function deliveryJobId(deliveryId: string, attempt: number) {
  return `${deliveryId}.${attempt}`
}

/** The body as sent: the envelope, fields in their documented order, byte-identical on every retry. */
export function bodyOf(payload: ClaimedDelivery['payload']) {
  return JSON.stringify({
    event_id: payload.event_id,
    type: payload.type,
    created: payload.created,
    data: payload.data,
  })
}

/**
 * A job naming a delivery this database does not hold: a queue shared with another deployment
 * (configure its own `WEBHOOK_QUEUE_PREFIX`). It fails loudly and stays in the failed set; it
 * is never completed as if it had been sent.
 */
export class ForeignDelivery extends Error {
  constructor(deliveryId: string) {
    super(
      `Delivery ${deliveryId} is not in this database: the webhook queue is shared with another deployment`
    )
  }
}

/**
 * Sends one attempt of one delivery. Waiting for the rate limit or another
 * worker's lease moves the job back to delayed; an open circuit or an earlier
 * event of the same lead (FIFO) hands the delivery back to Postgres, where
 * the relay picks it up again when it may go. Either way the attempt is not
 * spent. Postgres decides whether there is anything to send.
 */
export default class WebhookDeliveryJob {
  constructor(
    private deps: { sender: HttpSender; limiter: TokenBucket; queue: Queue; logger: Logger }
  ) {}

  async handle(job: Job<DeliveryJobData>, token?: string) {
    const { deliveryId, endpointId, attempt, rate } = job.data
    const wait = await this.deps.limiter.take(endpointId, rate)
    if (wait > 0) return this.later(job, token, wait)

    const now = new Date()
    const claim = await claimDelivery(deliveryId, attempt, now)
    if (claim.kind === 'gone') return 'nothing_to_do'
    if (claim.kind === 'foreign') throw new ForeignDelivery(deliveryId)
    if (claim.kind === 'busy') return this.later(job, token, claim.until.getTime() - now.getTime())
    const delivery = claim.delivery

    if (delivery.endpoint_status === 'disabled') {
      await settleForDisabledEndpoint(delivery, now)
      return 'endpoint_disabled'
    }
    if (delivery.endpoint_status === 'paused') {
      const pausedUntil = await startTrial(delivery.endpoint_id, now)
      if (pausedUntil) {
        // The circuit is open, or another delivery is the trial: back to Postgres until it may close.
        await releaseDelivery(delivery, pausedUntil)
        return 'circuit_open'
      }
    }
    if (await waitsForEarlier(delivery)) {
      // The relay hands it out again once the earlier deliveries of its lead are done.
      await releaseDelivery(delivery)
      return 'waiting_for_earlier'
    }

    let recorded: Awaited<ReturnType<typeof recordAttempt>>
    try {
      recorded = await this.send(delivery, attempt)
    } catch (error) {
      // Hand it back at once rather than when the lease lapses; at worst the receiver sees the event twice.
      await releaseDelivery(delivery).catch(() => {})
      throw error
    }

    if (recorded.retryAt) {
      const next = attempt + 1
      await this.deps.queue
        .add(
          DELIVERY_JOB,
          { ...job.data, attempt: next },
          {
            jobId: deliveryJobId(deliveryId, next),
            delay: Math.max(0, recorded.retryAt.getTime() - Date.now()),
          }
        )
        .catch((error) =>
          this.deps.logger.warn(
            { err: error, deliveryId },
            'next webhook attempt not enqueued; the sweeper will'
          )
        )
    }
    return recorded.decision.kind
  }

  private async send(delivery: ClaimedDelivery, attempt: number) {
    const body = bodyOf(delivery.payload)
    const headers = {
      ...signatureHeaders(
        signingSecrets(delivery, new Date()),
        delivery.event_id,
        Math.floor(Date.now() / 1000),
        body
      ),
      'x-leadgate-event-type': delivery.event_type,
      'x-leadgate-delivery-id': delivery.id,
      'x-leadgate-attempt': String(attempt),
    }
    const startedAt = new Date()
    const outcome = delivery.plugin
      ? await sendThroughPlugin(delivery, attempt)
      : await this.deps.sender.send(delivery.url, headers, body)
    for (let tries = 1; ; tries++) {
      try {
        return await recordAttempt(delivery, attempt, outcome, startedAt)
      } catch (error) {
        // A deadlock or serialization failure is worth another go; anything else is not.
        const code = (error as { code?: string }).code
        if (tries >= 3 || (code !== '40P01' && code !== '40001')) throw error
      }
    }
  }

  private async later(job: Job, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(Date.now() + Math.max(ms, 10), token)
    throw new DelayedError()
  }
}
