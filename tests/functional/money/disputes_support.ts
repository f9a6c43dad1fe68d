import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import Principal from '#auth/principal'
import TenancyService from '#services/platform/tenancy_service'
import DisputeService from '#services/money/dispute_service'
import { account, balancesOf } from '#services/money/ledger'
import { createKey, createLabel, operatorKey } from '#tests/support/fixtures'
import { acceptedLead, route } from '#tests/functional/routing/routing_support'
import { soldLead } from '#tests/support/money'

/** Helpers of the dispute specs (not a spec itself). */

export const HOUR = 3_600_000

/**
 * A lead sold to a fresh buyer (`soldLead`), optionally under a label with its own settlement
 * policy; the buyer gets a read+submit key of the sale's environment (disputes are writes) and
 * the world an operator key.
 */
export async function disputable(
  client: ApiClient,
  options: Parameters<typeof soldLead>[1] & {
    policy?: { response_hours: number; decision_hours: number; default_outcome: string }
  } = {}
) {
  const { policy, ...sale } = options
  const label = policy ? await createLabel() : undefined
  if (label) {
    await db.table('settlement_policies').insert({
      label_id: label.id,
      payout_schedule: 'monthly',
      minimum_payout_cents: 0,
      ...policy,
      updated_at: new Date(),
    })
  }
  const sold = await soldLead(client, { ...sale, label })
  const { secret: buyerKey } = await createKey({
    buyerId: sold.buyer.id,
    environment: sale.environment ?? 'live',
  })
  return { ...sold, label, buyerKey, operatorKey: await operatorKey() }
}

/** Another lead of the same world, sold the same way. */
export async function sell(
  client: ApiClient,
  world: { publisher: { slug: string }; key: string },
  contact?: Record<string, string>
) {
  const leadId = await acceptedLead(client, world, contact ? { contact } : {})
  const outcome = await route(leadId)
  if (outcome.outcome !== 'matched') throw new Error(`lead not sold: ${JSON.stringify(outcome)}`)
  return leadId
}

/** The publisher's answer, which must be taken. */
export async function answerDispute(
  client: ApiClient,
  world: { key: string },
  id: string,
  text = 'The applicant confirmed by phone.'
) {
  const response = await client
    .post(`/v1/disputes/${id}/responses`)
    .bearerToken(world.key)
    .json({ text })
  response.assertStatus(201)
  return response
}

/** Every ledger account a sale of this world touches. */
export function accountsOf(world: { buyer: { id: string }; publisher: { id: string } }) {
  return [
    account.buyerPending(world.buyer.id),
    account.buyerPayable(world.buyer.id),
    account.publisherPending(world.publisher.id),
    account.publisherPayable(world.publisher.id),
    account.marginPending,
    account.marginEarned,
  ]
}

export function openDispute(
  client: ApiClient,
  world: { leadId: string; buyerKey: string },
  body: Record<string, unknown> = { reason: 'invalid_contact', details: 'Nobody answers.' }
) {
  return client.post(`/v1/leads/${world.leadId}/disputes`).bearerToken(world.buyerKey).json(body)
}

export function disputeRow(id: string) {
  return db.from('disputes').where('id', id).firstOrFail()
}

export function eventsOf(disputeOrLead: { lead_id: string }, type: string) {
  return db
    .from('outbox_events')
    .where('lead_id', disputeOrLead.lead_id)
    .where('type', type)
    .orderBy('created_at')
}

export function trailOf(leadId: string) {
  return db.from('audit.entries').where('lead_id', leadId).orderBy('lead_seq')
}

/** Rows of the publisher's schema, read the way the service reads them. */
export async function tenantRows(
  schemaName: string,
  sql: string,
  bindings: unknown[] = []
): Promise<Record<string, any>[]> {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run({ schemaName }, async (trx) => {
    const result = await trx.rawQuery(sql, bindings as any)
    return result.rows
  })
}

/** The service, for steps at a moment of the test's choosing. */
export function disputes() {
  return app.container.make(DisputeService)
}

const ACTOR_SUFFIX = {
  operator: '000000000001',
  publisher: '000000000002',
  buyer: '000000000003',
}

/** A caller for the service itself, when a step must happen at a moment of the test's choosing. */
export function principalOf(
  kind: 'operator' | 'publisher' | 'buyer',
  owner: { publisherId?: string; buyerId?: string } = {}
) {
  return new Principal(
    kind,
    new Set(['read', 'submit'] as const),
    'live',
    `api_key:00000000-0000-7000-8000-${ACTOR_SUFFIX[kind]}`,
    owner.publisherId ?? null,
    owner.buyerId ?? null
  )
}

/** Every account's balance equals the sum of its entries, and the books sum to zero. */
export async function assertBooksBalance(assert: any, accounts: string[]) {
  const sums = await db
    .from('ledger_entries')
    .whereIn('account', accounts)
    .groupBy('account', 'currency')
    .select('account', 'currency', db.raw('sum(amount_cents)::bigint AS cents'))
  const balances = await balancesOf(db.connection(), accounts)
  for (const row of sums) {
    assert.equal(
      balances.get(row.account)?.get(row.currency.trim()),
      Number(row.cents),
      row.account
    )
  }
  const total = await db
    .from('ledger_entries')
    .groupBy('currency')
    .select('currency', db.raw('sum(amount_cents)::bigint AS cents'))
  for (const row of total) assert.equal(Number(row.cents), 0)
}
