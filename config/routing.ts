import env from '#start/env'
import services from '#config/services'

const routingConfig = {
  /** The BullMQ queue routing jobs (and the sweeper's ticks) go through. */
  queue: 'routing',
  /**
   * Redis key prefix of the queue. Defaults to one per database, so test runs
   * and benchmarks sharing a Redis never pick up each other's jobs.
   */
  prefix: env.get('ROUTING_QUEUE_PREFIX') ?? services.queuePrefix,
  /** Routing jobs one worker process takes at once; they wait for their publisher's transaction, not a connection each. */
  concurrency: env.get('ROUTING_CONCURRENCY') ?? 128,
  /**
   * Leads of one publisher whose jobs arrive while its routing transaction
   * is open are decided and written together by the next one (GroupCommit):
   * at most `maxSize` per transaction, `maxInFlight` transactions per
   * publisher at once, per process.
   */
  groupCommit: {
    maxSize: env.get('ROUTING_GROUP_MAX_SIZE') ?? 32,
    maxInFlight: env.get('ROUTING_GROUP_MAX_IN_FLIGHT') ?? 1,
  },
  /**
   * Leads accepted within `lingerMs` of each other go to the worker in one
   * job of at most `jobSize` leads: a job costs Redis round trips and worker
   * bookkeeping whatever it carries. Intake does not wait for it (the lead
   * is in Postgres; the sweeper routes what a crash left unqueued).
   */
  enqueue: {
    lingerMs: env.get('ROUTING_ENQUEUE_LINGER_MS') ?? 10,
    jobSize: 64,
  },
  /** An accepted lead nobody bought is offered again (caps reset, rules change) until it is this old. */
  retryMaxAgeHours: env.get('ROUTING_RETRY_MAX_AGE_HOURS') ?? 72,
  /**
   * A routing job takes milliseconds; its lock is renewed while it runs. A worker that died
   * (SIGKILL, OOM) holds its jobs until the lock lapses and the stalled check hands them on.
   */
  lockSeconds: env.get('ROUTING_LOCK_SECONDS') ?? 10,
  stalledIntervalSeconds: env.get('ROUTING_STALLED_INTERVAL_SECONDS') ?? 5,
  /** How often the sweeper looks for unsold leads worth another try. */
  sweepIntervalSeconds: env.get('ROUTING_SWEEP_INTERVAL_SECONDS') ?? 60,
  /** A live accepted lead never routed this long after intake lost its job (Redis down, crash): re-queued. */
  lostAfterSeconds: env.get('ROUTING_LOST_AFTER_SECONDS') ?? 30,
  /** Leads re-queued per sweep; the rest follow on the next tick. */
  sweepBatch: 1000,
  /** The day and month a cap counts in, for a rule without a schedule (and so without a time zone). */
  defaultTimezone: env.get('ROUTING_DEFAULT_TIMEZONE') ?? 'UTC',
}

export default routingConfig
