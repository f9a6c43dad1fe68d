import db from '@adonisjs/lucid/services/db'
import Publisher from '#models/publisher'
import uploadsConfig from '#config/uploads'
import { enqueueUploadJob } from '#services/uploads/upload_queue'

/**
 * Postgres is the truth about uploads; Redis only carries their jobs. An
 * upload left validating or accepting with no progress for a while (its job
 * lost with Redis, or never queued because Redis was away when it was asked
 * for) is queued again. A step still running keeps its job id, so queuing it
 * again changes nothing.
 */
export default class UploadSweeper {
  async requeueStale(now = new Date()) {
    const publishers = await Publisher.query().whereRaw("'upload' = ANY(delivery_methods)")
    if (publishers.length === 0) return 0
    const since = new Date(now.getTime() - uploadsConfig.staleAfterSeconds * 1000)
    const stale = await db.rawQuery(
      publishers
        .map(
          (publisher) =>
            `SELECT id, publisher_id, status FROM "${publisher.schemaName}".uploads
             WHERE status IN ('validating', 'accepting') AND updated_at < ?`
        )
        .join(' UNION ALL '),
      publishers.map(() => since)
    )
    for (const row of stale.rows as { id: string; publisher_id: string; status: string }[]) {
      await enqueueUploadJob(
        row.status === 'validating' ? 'validate' : 'accept',
        row.id,
        row.publisher_id
      )
    }
    return stale.rows.length
  }
}
