import { Worker, type Job } from 'bullmq'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import uploadsConfig from '#config/uploads'
import { redisConnection } from '#config/redis'
import type { UploadJob } from '#services/uploads/upload_queue'
import UploadValidation from '#services/uploads/upload_validation'
import UploadAcceptance from '#services/uploads/upload_acceptance'
import UploadSweeper from '#services/uploads/upload_sweeper'

/**
 * Starts the upload worker in this process (validation and acceptance, one
 * upload at a time: each already works in batches) and its sweep; resolves,
 * once connected, to a function that stops both (finishing the job in flight).
 */
export async function startUploadWorker(options: { sweep?: boolean } = {}) {
  const validation = await app.container.make(UploadValidation)
  const acceptance = await app.container.make(UploadAcceptance)

  const worker = new Worker<UploadJob>(
    uploadsConfig.queue.name,
    async (job: Job<UploadJob>) => {
      const { uploadId, publisherId } = job.data
      // Progress is in Postgres; the lock is renewed by BullMQ while a step runs.
      if (job.name === 'validate') return validation.run(publisherId, uploadId)
      if (job.name === 'accept') return acceptance.run(publisherId, uploadId)
    },
    {
      connection: redisConnection,
      prefix: uploadsConfig.queue.prefix,
      concurrency: 1,
      lockDuration: uploadsConfig.queue.lockSeconds * 1000,
      stalledInterval: uploadsConfig.queue.stalledIntervalSeconds * 1000,
    }
  )
  worker.on('failed', (job, error) =>
    logger.error({ err: error, jobId: job?.id, attempts: job?.attemptsMade }, 'upload job failed')
  )
  worker.on('error', (error) => logger.warn({ err: error }, 'upload worker: redis error'))
  await worker.waitUntilReady()

  let sweep: NodeJS.Timeout | undefined
  if (options.sweep ?? true) {
    const sweeper = new UploadSweeper()
    sweep = setInterval(() => {
      sweeper.requeueStale().catch((error) => logger.warn({ err: error }, 'uploads: sweep failed'))
    }, uploadsConfig.sweepIntervalSeconds * 1000)
    sweep.unref()
  }
  return async () => {
    clearInterval(sweep)
    await worker.close()
  }
}
