import { Queue } from 'bullmq'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import uploadsConfig from '#config/uploads'
import { redisConnection } from '#config/redis'

export type UploadJobName = 'validate' | 'accept'
export type UploadJob = { uploadId: string; publisherId: string }

const ENQUEUE_TIMEOUT_MS = 2000
let producer: Queue<UploadJob> | undefined

/** The producer, opened on first use; the queue provider closes it at shutdown. */
function uploadQueue() {
  if (!producer) {
    if (app.isTerminated) throw new Error('the application has shut down')
    producer = new Queue<UploadJob>(uploadsConfig.queue.name, {
      connection: redisConnection,
      prefix: uploadsConfig.queue.prefix,
    })
    producer.on('error', (error) => logger.warn({ err: error }, 'upload queue: redis error'))
  }
  return producer
}

/**
 * Queues a step of an upload: call it after the transaction that asked for
 * it committed. The job id names the upload and the step, so a step queued
 * twice (the web process and the sweeper) runs once at a time. Never throws:
 * when Redis cannot take the job, the worker's sweep queues it again.
 */
export async function enqueueUploadJob(name: UploadJobName, uploadId: string, publisherId: string) {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('upload queue did not answer in time')),
      ENQUEUE_TIMEOUT_MS
    )
  })
  try {
    await Promise.race([
      uploadQueue().add(
        name,
        { uploadId, publisherId },
        {
          jobId: `${name}-${uploadId}`,
          removeOnComplete: true,
          removeOnFail: true,
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
        }
      ),
      timeout,
    ])
    return true
  } catch (error) {
    logger.error({ err: error, uploadId }, `uploads: could not queue ${name}; the sweep will`)
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Closes the producer (shutdown, end of a test run or benchmark). */
export async function closeUploadQueue() {
  const open = producer
  producer = undefined
  await open?.close()
}
