import pg from 'pg'
import type { Queue } from 'bullmq'
import db from '@adonisjs/lucid/services/db'
import type { Logger } from '@adonisjs/core/logger'
import services from '#config/services'
import webhooksConfig from '#config/webhooks'
import { TASK_CHANNEL, WAKE_CHANNEL } from '#services/webhooks/fan_out'
import { prepared } from '#services/sql/prepared'
import { DELIVERY_JOB, type DeliveryJobData, deliveryJobId } from '#services/webhooks/delivery_job'

type DueRow = {
  id: string
  endpoint_id: string
  attempt_count: number
  next_trigger: string
  rate_limit_per_second: number | null
}

/**
 * Marks a batch of due deliveries that are not yet in Redis as enqueued and
 * returns them, oldest first. Skips endpoints that are disabled or whose
 * circuit is open, and on FIFO endpoints any delivery whose lead still has
 * an earlier one open.
 */
const TAKE_DUE = `
  UPDATE webhook_deliveries d SET enqueued_at = ?
    FROM webhook_endpoints e
   WHERE e.id = d.endpoint_id AND d.id IN (
     SELECT d.id
       FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.enqueued_at IS NULL AND d.status IN ('pending', 'failed') AND d.next_attempt_at <= ?
        AND (e.status = 'enabled' OR (e.status = 'paused' AND e.paused_until <= ?))
        AND (NOT e.fifo OR d.ordering_key IS NULL OR NOT EXISTS (
              SELECT 1 FROM webhook_deliveries o
               WHERE o.endpoint_id = d.endpoint_id AND o.ordering_key = d.ordering_key
                 AND o.status IN ('pending', 'failed') AND o.id < d.id))
      ORDER BY d.next_attempt_at
      LIMIT ?
      FOR NO KEY UPDATE OF d SKIP LOCKED)
  RETURNING d.id, d.endpoint_id, d.attempt_count, d.next_trigger, e.rate_limit_per_second`

/**
 * Turns due deliveries into BullMQ jobs. Woken by NOTIFY on every commit that
 * created deliveries, and by a poll for retries coming due and for missed
 * notifications. A batch is marked enqueued, then added to Redis; if Redis
 * refuses, the mark is taken back and the next pass tries again (a crash in
 * between leaves marked rows without jobs, which the sweeper re-enqueues).
 * Job ids make a repeated add a no-op.
 */
export class Relay {
  private listener: pg.Client | null = null
  private timer: NodeJS.Timeout | null = null
  private running = false
  private again = false
  private stopped = false
  private failing = false

  constructor(
    private queue: Queue,
    private logger: Logger,
    /** Called when a recovery or bulk-retry task was queued. */
    private onTask: () => void = () => {}
  ) {}

  async start() {
    this.stopped = false
    await this.listen()
    this.timer = setInterval(() => this.wake(), webhooksConfig.relay.pollIntervalMs)
    this.wake()
  }

  async stop() {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    await this.listener?.end().catch(() => {})
    this.listener = null
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 20))
  }

  wake() {
    if (this.stopped) return
    void this.dispatch()
  }

  /** Runs until nothing is due; a wake-up during a pass triggers one more. */
  async dispatch() {
    if (this.running) {
      this.again = true
      return
    }
    this.running = true
    try {
      do {
        this.again = false
        while (!this.stopped && (await this.dispatchBatch()) === webhooksConfig.relay.batchSize);
      } while (this.again && !this.stopped)
      if (this.failing) this.logger.info('webhook relay dispatching again')
      this.failing = false
    } catch (error) {
      // Once per outage, not on every poll.
      if (!this.failing)
        this.logger.warn(
          { err: error },
          'webhook relay cannot dispatch (Redis or Postgres unavailable?); retrying on every wake-up'
        )
      this.failing = true
    } finally {
      this.running = false
    }
  }

  private async dispatchBatch() {
    const now = new Date()
    const due = await prepared(
      db.rawQuery(TAKE_DUE, [now, now, now, webhooksConfig.relay.batchSize]),
      'relay_take_due'
    )
    const rows: DueRow[] = due.rows
    if (rows.length === 0) return 0
    try {
      await withTimeout(this.enqueue(rows), 5000)
    } catch (error) {
      await db
        .from('webhook_deliveries')
        .whereIn(
          'id',
          rows.map((row) => row.id)
        )
        .where('enqueued_at', now)
        .update({ enqueued_at: null })
      throw error
    }
    return rows.length
  }

  private async enqueue(rows: DueRow[]) {
    await this.clearEarlierJobs(rows.filter((row) => row.next_trigger !== 'auto'))
    await this.queue.addBulk(
      rows.map((row) => {
        const data: DeliveryJobData = {
          deliveryId: row.id,
          endpointId: row.endpoint_id,
          attempt: row.attempt_count + 1,
          rate: row.rate_limit_per_second ?? webhooksConfig.rateLimit.perSecond,
        }
        return { name: DELIVERY_JOB, data, opts: { jobId: deliveryJobId(row.id, data.attempt) } }
      })
    )
  }

  /**
   * A resend asked for now may find its job already in Redis, delayed until
   * the scheduled retry: that job is promoted rather than waited for.
   */
  private async clearEarlierJobs(rows: DueRow[]) {
    for (const row of rows) {
      const jobId = deliveryJobId(row.id, row.attempt_count + 1)
      const state = await this.queue.getJobState(jobId)
      const job = state === 'delayed' ? await this.queue.getJob(jobId) : undefined
      await job?.promote()
      if (state === 'completed' || state === 'failed') await this.queue.remove(jobId)
    }
  }

  private async listen() {
    const client = new pg.Client({ connectionString: services.databaseUrl.href })
    client.on('notification', (message) =>
      message.channel === TASK_CHANNEL ? this.onTask() : this.wake()
    )
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'webhook relay lost its LISTEN connection; reconnecting')
      this.listener = null
      client.end().catch(() => {})
      setTimeout(() => !this.stopped && this.listen().catch(() => {}), 1000)
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${WAKE_CHANNEL}; LISTEN ${TASK_CHANNEL}`)
      if (this.stopped) return void (await client.end())
      this.listener = client
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook relay cannot LISTEN; polling only until it can')
      client.end().catch(() => {})
      setTimeout(() => !this.stopped && this.listen().catch(() => {}), 1000)
    }
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error))
    )
  })
}
