import { test } from '@japa/runner'
import Buyer from '#models/buyer'
import AccessLogEntry from '#models/access_log_entry'
import { createBuyer, createKey, createPublisher, operatorKey } from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'
import {
  acceptedLead,
  createRule,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

function stateOf(buyerId: string) {
  return databaseState(['access_log'], [{ table: 'buyers', id: buyerId }])
}

test.group('Buyers / update', () => {
  test('the operator renames a buyer and changes its contact; the log names the fields, never the address', async ({
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const response = await client
      .patch(`/v1/buyers/${buyer.id}`)
      .bearerToken(await operatorKey())
      .json({ name: 'Solar Direct', contact_email: 'new-desk@solar.example' })
    response.assertStatus(200)
    assert.containSubset(response.body(), {
      id: buyer.id,
      name: 'Solar Direct',
      contact_email: 'new-desk@solar.example',
      status: 'active',
    })
    await buyer.refresh()
    assert.equal(buyer.contactEmail, 'new-desk@solar.example')
    const [entry] = await AccessLogEntry.query()
      .where('subject_id', buyer.id)
      .where('action', 'buyer.updated')
    assert.equal(entry.buyerId, buyer.id)
    assert.deepEqual(entry.details, { fields: ['name', 'contact_email'] })
    assert.notInclude(JSON.stringify(entry.details), 'solar.example')
  })

  test('a paused buyer gets no new matches; resumed, it does again', async ({ client, assert }) => {
    const world = await routingPublisher()
    const [paused, fallback] = [await createBuyer(), await createBuyer()]
    const preferred = await createRule({
      buyerId: paused.id,
      publisherIds: [world.publisher.id],
      priority: 10,
    })
    const spare = await createRule({ buyerId: fallback.id, publisherIds: [world.publisher.id] })
    const key = await operatorKey()

    const pausing = await client
      .patch(`/v1/buyers/${paused.id}`)
      .bearerToken(key)
      .json({ status: 'paused' })
    pausing.assertStatus(200)
    assert.equal(pausing.body().status, 'paused')
    const [entry] = await AccessLogEntry.query()
      .where('subject_id', paused.id)
      .where('action', 'buyer.updated')
    assert.deepEqual(entry.details, { fields: ['status'], status: 'paused' })

    const first = await acceptedLead(client, world)
    assert.containSubset(await route(first), { outcome: 'matched', ruleId: spare.id })

    ;(
      await client.patch(`/v1/buyers/${paused.id}`).bearerToken(key).json({ status: 'active' })
    ).assertStatus(200)
    const second = await acceptedLead(client, world)
    assert.containSubset(await route(second), { outcome: 'matched', ruleId: preferred.id })
  })

  test('bad fields answer 422 per field and change nothing', async ({ client, assert }) => {
    const buyer = await createBuyer()
    const key = await operatorKey()
    const before = await stateOf(buyer.id)
    for (const [body, field, code] of [
      [{ status: 'deleted' }, 'status', 'enum'],
      [{ contact_email: 'nobody' }, 'contact_email', 'email'],
      [{ name: '' }, 'name', 'minLength'],
      [{ price_cents: 1 }, 'price_cents', 'unknown_field'],
    ] as const) {
      const response = await client.patch(`/v1/buyers/${buyer.id}`).bearerToken(key).json(body)
      response.assertStatus(422)
      assert.deepInclude(
        response.body().errors.map((error: any) => [error.field, error.code]),
        [field, code],
        JSON.stringify(body)
      )
    }
    assert.deepEqual(await stateOf(buyer.id), before)
  })

  test('publishers and other buyers get 404; the buyer itself 403; nothing changes', async ({
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const own = (await createKey({ buyerId: buyer.id })).secret
    const other = (await createKey({ buyerId: (await createBuyer()).id })).secret
    const publisher = (await createKey({ publisherId: (await createPublisher()).id })).secret
    const before = await stateOf(buyer.id)
    const body = { status: 'paused' }

    for (const secret of [other, publisher]) {
      const response = await client.patch(`/v1/buyers/${buyer.id}`).bearerToken(secret).json(body)
      response.assertStatus(404)
      assert.equal(response.body().code, 'not_found')
    }
    const itself = await client.patch(`/v1/buyers/${buyer.id}`).bearerToken(own).json(body)
    itself.assertStatus(403)
    assert.equal(itself.body().code, 'operator_only')
    assert.deepEqual(await stateOf(buyer.id), before)
    assert.equal((await Buyer.findOrFail(buyer.id)).status, 'active')
  })
})
