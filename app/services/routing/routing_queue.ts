import { createHash } from 'node:crypto'
import { Queue, Worker, type Job } from 'bullmq'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import routingConfig from '#config/routing'
import { redisConnection } from '#config/redis'
import RoutingService, { type RoutingOutcome } from '#services/routing/routing_service'
import RoutingSweeper from '#services/routing/sweeper'
import { Coalescer } from '#services/platform/coalescer'

/** A routing job carries the leads accepted together; `leadId` is the shape queued before. */
type RoutingJob = { leadIds: string[] } | { leadId: string } | Record<string, never>

export const SWEEP_SCHEDULER = 'routing-sweep'
const ENQUEUE_TIMEOUT_MS = 2000
/** After a failed enqueue, intake stops trying for a while: the sweeper routes those leads from Postgres. */
const SKIP_AFTER_FAILURE_MS = 5000
let skipUntil = 0
const queues = new Map<string, Queue<RoutingJob>>()

/** Per key prefix, the leads queued within the linger: one job each window (routing.enqueue). */
const enqueuers = new Map<string, Coalescer<string[], boolean>>()

/**
 * One producer per key prefix, opened on first use. The queue provider
 * closes them when the app shuts down, after the HTTP server has drained:
 * a lead accepted while the server stops is queued like any other, not
 * left to the sweep.
 */
export function routingQueue(prefix = routingConfig.prefix) {
  let queue = queues.get(prefix)
  if (!queue) {
    // Past shutdown nobody would close a new connection.
    if (app.isTerminated) throw new Error('the application has shut down')
    queue = new Queue<RoutingJob>(routingConfig.queue, { connection: redisConnection, prefix })
    queue.on('error', (error) => logger.warn({ err: error }, 'routing queue: redis error'))
    queues.set(prefix, queue)
  }
  return queue
}

/**
 * Queues routing for accepted leads: call it after their transaction
 * commits. Leads queued within `routing.enqueue.lingerMs` of each other,
 * by any request of this process, travel in one job (up to
 * `routing.enqueue.jobSize`): a job's Redis round trips and the worker's
 * bookkeeping are paid per job, not per lead. A lead in two jobs (intake
 * and the sweeper, say) is routed once: routing re-checks it under its
 * lock. Resolves once the leads are in Redis; never throws: when Redis
 * cannot take them, the sweeper picks them up later from Postgres.
 */
export async function enqueueRouting(
  leadIds: string | string[],
  options: { prefix?: string } = {}
): Promise<boolean> {
  const ids = Array.isArray(leadIds) ? leadIds : [leadIds]
  if (ids.length === 0) return true
  // A publisher may be waiting for the answer: while Redis is known to be away, do not make it wait again.
  if (Date.now() < skipUntil) return false
  const prefix = options.prefix ?? routingConfig.prefix
  let enqueuer = enqueuers.get(prefix)
  if (!enqueuer) {
    enqueuer = new Coalescer(
      async (calls) => {
        const queued = await addJobs(prefix, calls.flat())
        return calls.map(() => queued)
      },
      { windowMs: routingConfig.enqueue.lingerMs }
    )
    enqueuers.set(prefix, enqueuer)
  }
  return enqueuer.call(ids)
}

async function addJobs(prefix: string, leadIds: string[]) {
  const ids = [...new Set(leadIds)]
  const size = routingConfig.enqueue.jobSize
  const jobs = []
  for (let start = 0; start < ids.length; start += size) jobs.push(ids.slice(start, start + size))
  let timer: NodeJS.Timeout | undefined
  // With Redis away the client would hold the call until it reconnects; a caller may be answering a publisher.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('routing queue did not answer in time')),
      ENQUEUE_TIMEOUT_MS
    )
  })
  try {
    const adding = routingQueue(prefix).addBulk(
      jobs.map((job) => ({
        name: 'route',
        data: { leadIds: job },
        opts: {
          jobId: routingJobId(job),
          // Finished jobs are dropped so the id is free for a later retry by the sweeper.
          removeOnComplete: true,
          removeOnFail: true,
          attempts: 3,
          backoff: { type: 'exponential', delay: 500 },
        },
      }))
    )
    await Promise.race([adding, timeout])
    return true
  } catch (error) {
    skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS
    logger.error(
      { err: error, leads: ids.length },
      'routing: could not queue; the sweeper will retry'
    )
    return false
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A lone lead's job is named by the lead, a group's by its sorted ids: the
 * same leads queued twice while the first job waits make one job.
 */
function routingJobId(leadIds: string[]) {
  if (leadIds.length === 1) return leadIds[0]
  return createHash('sha256')
    .update([...leadIds].sort().join(','))
    .digest('base64url')
}

/** The leads a job asks to route, whichever shape queued it. */
function leadsOf(job: Job<RoutingJob>): string[] {
  const data = job.data as { leadIds?: string[]; leadId?: string }
  return data.leadIds ?? (data.leadId ? [data.leadId] : [])
}

export type RoutingWorkerOptions = {
  concurrency?: number
  prefix?: string
  /** Also run the sweeper every `routing.sweepIntervalSeconds` (default true). */
  sweep?: boolean
  /** How often to check that Redis still holds the sweep schedule (default: the sweep interval). */
  scheduleCheckMs?: number
  /** Uniform [0, 1) source for weighted choices (tests seed it). */
  random?: () => number
  /**
   * Sells one lead to the end (selling's sale runner, which also posts to buyers' own systems);
   * without it a job only routes, and a lead whose buyer must be called waits in its offer.
   */
  sell?: (leadId: string, options: { random?: () => number }) => Promise<RoutingOutcome>
}

/**
 * Starts a routing worker in this process; resolves, once it is connected,
 * to a function that stops it (finishing jobs in flight).
 */
export async function startRoutingWorker(options: RoutingWorkerOptions = {}) {
  const prefix = options.prefix ?? routingConfig.prefix
  const routing = await app.container.make(RoutingService)
  const sell = options.sell ?? ((leadId, opts) => routing.route(leadId, opts))

  const worker = new Worker<RoutingJob>(
    routingConfig.queue,
    async (job: Job<RoutingJob>) => {
      if (job.name === 'sweep') return sweepRouting({ prefix })
      // Each lead joins its publisher's routing transaction; one lead's failure retries the job, and
      // the leads it had routed are skipped then (no longer accepted).
      const routed = await Promise.allSettled(
        leadsOf(job).map((leadId) => sell(leadId, { random: options.random }))
      )
      const failed = routed.find((result) => result.status === 'rejected')
      if (failed) throw failed.reason
      return routed.map((result) => (result as PromiseFulfilledResult<RoutingOutcome>).value)
    },
    {
      connection: redisConnection,
      prefix,
      concurrency: options.concurrency ?? routingConfig.concurrency,
      lockDuration: routingConfig.lockSeconds * 1000,
      stalledInterval: routingConfig.stalledIntervalSeconds * 1000,
    }
  )
  worker.on('failed', (job, error) =>
    logger.error({ err: error, jobId: job?.id, attempts: job?.attemptsMade }, 'routing job failed')
  )
  worker.on('error', (error) => logger.warn({ err: error }, 'routing worker: redis error'))
  await worker.waitUntilReady()

  let watchdog: NodeJS.Timeout | undefined
  if (options.sweep ?? true) {
    await ensureSweepSchedule(prefix)
    // The schedule lives in Redis; a Redis that comes back empty has none, and the leads whose
    // jobs it lost would wait for a worker restart. Each worker puts it back within an interval.
    watchdog = setInterval(
      () => {
        ensureSweepSchedule(prefix).catch((error) =>
          logger.warn({ err: error }, 'routing: could not check the sweep schedule; Redis away?')
        )
      },
      options.scheduleCheckMs ?? routingConfig.sweepIntervalSeconds * 1000
    )
    watchdog.unref()
  }

  return async () => {
    clearInterval(watchdog)
    await worker.close()
  }
}

/**
 * Creates the sweep schedule when Redis has none. Every worker calls it;
 * Redis keeps one scheduler, so sweeps never pile up. An existing schedule
 * is left as it is: upserting it again would move its next run.
 */
export async function ensureSweepSchedule(prefix = routingConfig.prefix) {
  const queue = routingQueue(prefix)
  if (await queue.getJobScheduler(SWEEP_SCHEDULER)) return false
  await queue.upsertJobScheduler(
    SWEEP_SCHEDULER,
    { every: routingConfig.sweepIntervalSeconds * 1000 },
    { name: 'sweep', data: {}, opts: { removeOnComplete: true, removeOnFail: true } }
  )
  return true
}

/**
 * One sweep (the worker runs it on a schedule): re-queues the unsold leads
 * that are due another try and drops counter rows of periods long over.
 */
export async function sweepRouting(options: { prefix?: string; now?: Date } = {}) {
  const sweeper = await app.container.make(RoutingSweeper)
  const due = await sweeper.dueLeads({ now: options.now })
  await enqueueRouting(due, { prefix: options.prefix })
  await sweeper.pruneUsage(options.now)
  return { requeued: due.length }
}

/** Closes the producers (shutdown, end of a test run or benchmark), after sending the leads waiting. */
export async function closeRoutingQueues() {
  await Promise.all([...enqueuers.values()].map((enqueuer) => enqueuer.drain()))
  const open = [...queues.values()]
  queues.clear()
  await Promise.all(open.map((queue) => queue.close()))
}
