import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { buyerFigures } from '#services/catalogue/buyer_figures'
import { createBuyer } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

test.group('Catalogue / buyer figures', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('counts the leads each buyer bought today and its routing rules', async ({
    client,
    assert,
  }) => {
    const world = await routingPublisher()
    const [buyer, idle] = [await createBuyer(), await createBuyer()]
    await createRule({ buyerId: buyer.id, publisherIds: [world.publisher.id] })
    await createRule({ buyerId: buyer.id, publisherIds: [world.publisher.id], enabled: false })
    for (let i = 0; i < 3; i++) await route(await acceptedLead(client, world))
    // A lead it bought yesterday is not today's.
    const old = await acceptedLead(client, world)
    await route(old)
    const yesterday = new Date(Date.now() - 2 * 86_400_000)
    await db.from('sales').where('lead_id', old).update({ sold_at: yesterday })
    await db.from('lead_facts').where('lead_id', old).update({ matched_at: yesterday })
    // A sandbox sale is a test, not a lead bought; its rule is one of the buyer's rules all the same.
    const sandbox = await routingPublisher(undefined, 'sandbox')
    await createRule({
      buyerId: buyer.id,
      publisherIds: [sandbox.publisher.id],
      environment: 'sandbox',
    })
    assert.include(await route(await acceptedLead(client, sandbox)), { outcome: 'matched' })

    const figures = await buyerFigures([buyer.id, idle.id])
    assert.deepEqual(figures.get(buyer.id), { leads_today: 3, routing_rules: 3 })
    assert.deepEqual(figures.get(idle.id), { leads_today: 0, routing_rules: 0 })
    assert.equal((await buyerFigures([])).size, 0)
  })
})
