import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import Destination, { type DestinationKind } from '#models/destination'
import SaleRunner from '#services/selling/sale_runner'
import type { RouteOptions } from '#services/routing/routing_service'
import { sealDestinationSecrets } from '#services/selling/destination_secrets'
import { createLabel } from '#tests/support/fixtures'
import { routingPublisher } from '#tests/functional/routing/routing_support'

/** Helpers shared by the selling specs (not a spec itself). */

/** A label and a live publisher under it, so rules scoped to the label reach this test's leads only. */
export async function sellingWorld(sale: Record<string, unknown> | null = null) {
  const label = await createLabel()
  if (sale) {
    label.sale = sale
    await label.save()
  }
  const world = await routingPublisher(label)
  return { label, ...world }
}

/** A destination of the buyer, stored as the API stores it (secrets sealed apart). */
export async function createDestination(
  buyerId: string,
  kind: DestinationKind,
  config: Record<string, unknown> = {},
  secrets: Record<string, unknown> | null = null
) {
  return Destination.create({
    buyerId,
    name: `${kind} of ${buyerId.slice(-6)}`,
    kind,
    config,
    secrets: secrets ? sealDestinationSecrets(secrets) : null,
    signingSecret: null,
    status: 'enabled',
  })
}

/** Sells a lead to the end, as the worker does: routing, and every post between its steps. */
export async function sell(leadId: string, options: RouteOptions = {}) {
  const runner = await app.container.make(SaleRunner)
  return runner.sell(leadId, options)
}

export function attemptsOf(schemaName: string, leadId: string) {
  return db
    .from(`${schemaName}.sale_attempts`)
    .where('lead_id', leadId)
    .orderBy('started_at')
    .orderBy('id')
}

export function salesOf(leadId: string) {
  return db.from('sales').where('lead_id', leadId).orderBy('sold_at').orderBy('id')
}

export function usageOf(ruleId: string) {
  return db.from('routing_rule_usage').where('rule_id', ruleId).orderBy('period')
}
