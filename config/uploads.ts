import env from '#start/env'
import services from '#config/services'

/**
 * Uploads (CSV and JSON Lines, `POST /v1/uploads`): the limits a file must
 * keep to, and the queue its validation and acceptance run on in the worker.
 * Mutable on purpose: tests narrow the limits in process.
 */
const uploadsConfig = {
  /** The largest file taken, in bytes; past it the upload answers 413 and stores nothing. */
  maxBytes: env.get('UPLOAD_MAX_BYTES') ?? 50 * 1024 * 1024,
  /** The most data rows one upload may hold; past it the upload answers 422 and stores nothing. */
  maxRows: env.get('UPLOAD_MAX_ROWS') ?? 200_000,
  /** Columns (CSV header cells, JSON Lines keys) one upload may have. */
  maxColumns: 200,
  /** Characters one record may span; a longer one (an unclosed quote, say) refuses the file. */
  maxRecordChars: 256 * 1024,
  /** Raw rows written to the publisher's schema per INSERT (one JSON parameter) while the file streams in. */
  receiveBatch: 1000,
  /** Rows judged per transaction while validating (one read, one look-up, one write each). */
  validateBatch: env.get('UPLOAD_VALIDATE_BATCH') ?? 2000,
  /**
   * Rows turned into leads per transaction (one intake group commit) while
   * accepting. Each takes intake's duplicate locks, one per key (two a row
   * with e-mail and phone screened), from a lock table Postgres shares
   * among all its sessions (max_locks_per_transaction × max_connections,
   * 6,400 by default): keep it well below.
   */
  acceptBatch: env.get('UPLOAD_ACCEPT_BATCH') ?? 500,
  /** Acceptance batches in flight at once: the worker judges one while Postgres writes another. */
  acceptConcurrency: 2,
  queue: {
    name: 'uploads',
    /** One prefix per database, as routing's, so test runs and benchmarks never share jobs. */
    prefix: env.get('UPLOAD_QUEUE_PREFIX') ?? services.queuePrefix,
    /** A worker that died holds its job until the lock lapses; the stalled check hands it on. */
    lockSeconds: env.get('UPLOAD_LOCK_SECONDS') ?? 30,
    stalledIntervalSeconds: env.get('UPLOAD_STALLED_INTERVAL_SECONDS') ?? 15,
  },
  /**
   * How often a worker looks for uploads whose job Redis lost (validating or
   * accepting, untouched for `staleAfterSeconds`) and queues them again.
   */
  sweepIntervalSeconds: env.get('UPLOAD_SWEEP_INTERVAL_SECONDS') ?? 30,
  staleAfterSeconds: 60,
}

export default uploadsConfig
