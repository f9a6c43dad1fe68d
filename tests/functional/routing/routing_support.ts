import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import type { Environment } from '#auth/principal'
import RoutingRule from '#models/routing_rule'
import RoutingService, { type RouteOptions } from '#services/routing/routing_service'
import { createBuyer, createKey, createPublisher, leadBody } from '#tests/support/fixtures'

/** Helpers shared by the routing specs (not a spec itself). */

/** A live publisher, optionally under a label, with a read+submit key of the environment (live unless asked). */
export async function routingPublisher(
  label?: { slug: string },
  environment: Environment = 'live'
) {
  const publisher = await createPublisher({ label: label?.slug })
  publisher.merge({ status: 'live', deliveryMethods: ['api'] })
  await publisher.save()
  const { secret } = await createKey({ publisherId: publisher.id, environment })
  return { publisher, key: secret }
}

/** A rule of a fresh buyer unless one is given; tests always scope rules to their own publishers or labels. */
export async function createRule(overrides: Partial<RoutingRule> = {}) {
  return RoutingRule.create({
    buyerId: overrides.buyerId ?? (await createBuyer()).id,
    labelIds: [],
    publisherIds: [],
    criteria: [],
    priceCents: 1500,
    payoutCents: 1000,
    currency: 'EUR',
    caps: {},
    schedule: null,
    priority: 0,
    weight: 1,
    enabled: true,
    environment: 'live',
    ...overrides,
  })
}

/**
 * Rules scoped to nobody (no label, no publisher) take every lead in the
 * database; earlier specs may leave some behind. Routing specs switch them
 * off before each test so a lead only meets the rules its test made.
 */
export async function disableUnscopedRules() {
  await db
    .from('routing_rules')
    .whereRaw("label_ids = '{}' AND publisher_ids = '{}'")
    .where('enabled', true)
    .update({ enabled: false, updated_at: new Date() })
}

/** Delivers a valid lead and returns its id; it must be accepted. */
export async function acceptedLead(
  client: ApiClient,
  world: { publisher: { slug: string }; key: string },
  overrides: Record<string, any> = {}
) {
  const response = await client
    .post('/v1/leads')
    .bearerToken(world.key)
    .json(leadBody(world.publisher.slug, overrides))
  response.assertStatus(201)
  if (response.body().status !== 'accepted')
    throw new Error(`lead not accepted: ${response.text()}`)
  return response.body().id as string
}

export async function route(leadId: string, options: RouteOptions = {}) {
  const routing = await app.container.make(RoutingService)
  return routing.route(leadId, options)
}

export function factsOf(leadId: string) {
  return db.from('lead_facts').where('lead_id', leadId).firstOrFail()
}

/** Polls until `check` holds or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const result = await check()
    if (result) return result
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
