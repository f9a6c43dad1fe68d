import { uuidv7 } from 'uuidv7'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'

export type OutboxEvent = {
  type: string
  publisherId: string | null
  buyerId?: string | null
  leadId?: string | null
  environment: Environment
  data: Record<string, unknown>
}

/**
 * Events are rows written in the transaction that caused them, so an event
 * exists exactly when its cause committed. Delivery happens later, from here.
 */
export default class OutboxService {
  envelope(id: string, type: string, created: Date, data: Record<string, unknown>) {
    return { event_id: id, type, created: created.toISOString(), data }
  }

  async publish(trx: TransactionClientContract, events: OutboxEvent[], now = new Date()) {
    if (events.length === 0) return []
    const rows = events.map((event) => {
      const id = uuidv7()
      return {
        id,
        type: event.type,
        publisher_id: event.publisherId,
        buyer_id: event.buyerId ?? null,
        lead_id: event.leadId ?? null,
        environment: event.environment,
        payload: JSON.stringify(this.envelope(id, event.type, now, event.data)),
        created_at: now,
      }
    })
    await trx.table('public.outbox_events').multiInsert(rows)
    return rows.map((row) => row.id)
  }
}
