import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import { type SaleStatus, saleStatusOf } from '#services/selling/sale_status'

/** What a publisher that waited hears: whether the lead sold, and its own payout if so. */
export type SaleAnswer = { status: SaleStatus; payout_cents?: number }

type Waiter = { leadId: string; until: number; resolve: (answer: SaleAnswer) => void }

/** How often the waiting leads' facts are read, all of them in one query. */
const POLL_MS = 50
const waiters = new Set<Waiter>()
let timer: NodeJS.Timeout | null = null

/**
 * Waits until the lead's sale is decided or `seconds` pass (`Prefer: wait`, RFC 7240). Every
 * waiting request of this process is answered from one read of their facts each tick: a
 * publisher waiting at hundreds of leads a second costs twenty small queries a second, and the
 * sale itself (in the worker) needs no channel back to this process.
 */
export function waitForSale(leadId: string, seconds: number): Promise<SaleAnswer> {
  return new Promise((resolve) => {
    waiters.add({ leadId, until: Date.now() + seconds * 1000, resolve })
    timer ??= setTimeout(tick, POLL_MS)
  })
}

async function tick() {
  const waiting = [...waiters]
  try {
    const rows: {
      lead_id: string
      status: string
      sale_status: string | null
      payout_cents: number | null
    }[] = await db
      .from('lead_facts')
      .whereIn('lead_id', [...new Set(waiting.map((waiter) => waiter.leadId))])
      .select('lead_id', 'status', 'sale_status', 'payout_cents')
    const byId = new Map(rows.map((row) => [row.lead_id, row]))
    const now = Date.now()
    for (const waiter of waiting) {
      const fact = byId.get(waiter.leadId)
      const status = fact ? saleStatusOf(fact) : 'pending'
      if (status === 'pending' && now < waiter.until) continue
      waiters.delete(waiter)
      waiter.resolve(
        status === 'sold' ? { status, payout_cents: fact?.payout_cents ?? 0 } : { status }
      )
    }
  } catch (error) {
    // The database is away: the waiting answers say "pending" at their deadline, as if nothing came.
    logger.warn({ err: error }, 'sale watcher: could not read the waiting leads')
    const now = Date.now()
    for (const waiter of waiting) {
      if (now < waiter.until) continue
      waiters.delete(waiter)
      waiter.resolve({ status: 'pending' })
    }
  }
  timer = waiters.size > 0 ? setTimeout(tick, POLL_MS) : null
}
