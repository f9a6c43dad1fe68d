import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import type { Environment } from '#auth/principal'
import Buyer from '#models/buyer'
import { ledgerInsert, returnMovement } from '#services/money/ledger'
import {
  SALE_COLUMNS,
  type SaleRow,
  leadFactsUpdate,
  leadSummaryOf,
  saleOf,
} from '#services/money/sale_rows'
import { insertTogether, rawPart } from '#services/sql/insert_together'
import { createBuyer, createKey } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

/**
 * A lead sold to a fresh buyer by a rule of its own: the buyer's return window, the price and
 * the payout as asked, the publisher under `label` and the lead's `contact` when given. Answers
 * the lead, its publisher (and key), the buyer (and a read key).
 */
export async function soldLead(
  client: ApiClient,
  options: {
    priceCents?: number
    payoutCents?: number
    windowHours?: number
    label?: { slug: string }
    contact?: Record<string, string>
    /** A sandbox sale: the publisher's key, the rule and the buyer's key are sandbox ones. */
    environment?: Environment
  } = {}
) {
  const environment = options.environment ?? 'live'
  const world = await routingPublisher(options.label, environment)
  const buyer = await createBuyer()
  if (options.windowHours !== undefined) {
    await Buyer.query().where('id', buyer.id).update({ returnWindowHours: options.windowHours })
  }
  await createRule({
    buyerId: buyer.id,
    publisherIds: [world.publisher.id],
    priceCents: options.priceCents ?? 2500,
    payoutCents: options.payoutCents ?? 1800,
    environment,
  })
  const leadId = await acceptedLead(
    client,
    world,
    options.contact ? { contact: options.contact } : {}
  )
  const outcome = await route(leadId)
  if (outcome.outcome !== 'matched') throw new Error(`lead not sold: ${JSON.stringify(outcome)}`)
  const { secret: buyerKey } = await createKey({
    buyerId: buyer.id,
    permissions: ['read'],
    environment,
  })
  return { ...world, leadId, buyer, buyerKey }
}

/** The ledger rows of one lead, oldest first. */
export function ledgerOf(leadId: string) {
  return db.from('ledger_entries').where('lead_id', leadId).orderBy('id')
}

/**
 * Whether an amount appears in an answer (JSON or CSV) as a value of its own: `1800` in
 * `"payout_cents":1800` or `,1800,`, but not inside an id or a digest, where those four
 * digits turn up by chance (a dispute test that looked for the bare digits failed so).
 */
export function showsAmount(text: string, cents: number) {
  return new RegExp(`(?<![\\w.-])${cents}(?![\\w.-])`).test(text)
}

/**
 * Dates the return windows of some leads' sales (and their facts) to `at`: a window closed
 * before the clock turns, or a final sale placed in an earlier payout period.
 */
export async function dateWindows(leadIds: string[], at: Date) {
  await db.from('sales').whereIn('lead_id', leadIds).update({ settles_at: at })
  await db.from('lead_facts').whereIn('lead_id', leadIds).update({ settles_at: at })
}

/**
 * What an upheld dispute books for a sale of the lead (its buyer's, or its first), without the
 * dispute: a return out of pending, or a clawback once final; the sale returned and the lead's
 * facts summed up again, as the disputes engine writes them.
 */
export async function returnByHand(leadId: string, from: 'pending' | 'payable', buyerId?: string) {
  const sales: SaleRow[] = await db
    .from('sales as s')
    .where('s.lead_id', leadId)
    .orderBy('s.sold_at')
    .select(db.raw(SALE_COLUMNS))
  const sale = sales.find((each) => buyerId === undefined || each.buyer_id === buyerId)!
  sale.settlement = 'returned'
  await insertTogether(db.connection(), [
    ledgerInsert(returnMovement(saleOf(sale), from)),
    rawPart(`UPDATE sales SET settlement = 'returned' WHERE id = ?`, [sale.id]),
    leadFactsUpdate([{ leadId, summary: leadSummaryOf(sales) }], new Date()),
  ])
}

/**
 * Records that `buyerId` bought the lead, as a sale does (a `sales` row and the lead's facts),
 * for tests about what a buyer of a lead may read rather than about how it was sold.
 */
export async function recordSale(leadId: string, buyerId: string) {
  const fact = await db.from('lead_facts').where('lead_id', leadId).firstOrFail()
  await db.table('sales').insert({
    id: randomUUID(),
    lead_id: leadId,
    publisher_id: fact.publisher_id,
    label_id: fact.label_id,
    buyer_id: buyerId,
    environment: fact.environment,
    price_cents: 1500,
    payout_cents: 1000,
    currency: 'EUR',
    exclusive: true,
    sold_at: new Date(),
    settles_at: new Date(Date.now() + 72 * 3600_000),
  })
  await db.from('lead_facts').where('lead_id', leadId).update({ buyer_id: buyerId })
}
