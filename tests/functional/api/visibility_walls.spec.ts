import { test } from '@japa/runner'
import { createBuyer, createKey } from '#tests/support/fixtures'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'

/** A live lead sold to a buyer, and sandbox and live keys of every kind that might reach it. */
async function soldLiveLead(client: Parameters<typeof acceptedLead>[0]) {
  const world = await routingPublisher()
  const buyer = await createBuyer()
  await createRule({ buyerId: buyer.id, publisherIds: [world.publisher.id] })
  const leadId = await acceptedLead(client, world)
  const outcome = await route(leadId)
  if (outcome.outcome !== 'matched') throw new Error(`lead not sold: ${outcome.outcome}`)
  const key = async (options: Parameters<typeof createKey>[0]) => (await createKey(options)).secret
  return {
    world,
    buyer,
    leadId,
    buyerLive: await key({ buyerId: buyer.id, permissions: ['read'] }),
    buyerSandbox: await key({ buyerId: buyer.id, permissions: ['read'], environment: 'sandbox' }),
    operatorSandbox: await key({ environment: 'sandbox' }),
    publisherSandbox: await key({ publisherId: world.publisher.id, environment: 'sandbox' }),
  }
}

test.group('Visibility / the environment is a wall', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('sandbox keys of every owner kind answer 404 for a live lead, its trail and its proofs', async ({
    client,
    assert,
  }) => {
    const market = await soldLiveLead(client)
    const { leadId } = market
    const reads = [
      `/v1/leads/${leadId}`,
      `/v1/requests/${leadId}`,
      `/v1/audit-logs?lead_id=${leadId}`,
      `/v1/audit-logs/verify?lead_id=${leadId}`,
      `/v1/audit-logs/proof?lead_id=${leadId}`,
    ]
    // The live buyer key proves the reads exist (the proof waits for the sealer: 409 until then);
    // the sandbox keys must not reach them.
    for (const path of reads) {
      const live = await client.get(path).bearerToken(market.buyerLive)
      assert.oneOf(live.status(), path.includes('/proof') ? [200, 409] : [200], path)
    }
    for (const key of [market.buyerSandbox, market.operatorSandbox, market.publisherSandbox]) {
      for (const path of reads) {
        const response = await client.get(path).bearerToken(key)
        assert.equal(response.status(), 404, `${path} answered ${response.status()}`)
        assert.notInclude(response.text(), 'example.')
      }
    }
  })

  test('an operator sandbox key lists sandbox leads only and may not ask for live ones', async ({
    client,
    assert,
  }) => {
    const market = await soldLiveLead(client)
    const list = await client.get('/v1/leads').bearerToken(market.operatorSandbox)
    list.assertStatus(200)
    assert.notInclude(
      list.body().data.map((lead: { id: string }) => lead.id),
      market.leadId
    )
    const live = await client
      .get('/v1/leads')
      .qs({ environment: 'live' })
      .bearerToken(market.operatorSandbox)
    live.assertStatus(403)
    assert.equal(live.body().code, 'filter_not_allowed')

    const exported = await client
      .get('/v1/audit-logs')
      .qs({ format: 'json' })
      .bearerToken(market.operatorSandbox)
    exported.assertStatus(200)
    assert.notInclude(exported.text(), market.leadId)
  })
})

test.group('Visibility / filters and exports show only what the caller may see', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a buyer may not filter by publisher, and its export carries no publisher id', async ({
    client,
    assert,
  }) => {
    const market = await soldLiveLead(client)
    const slug = market.world.publisher.slug
    for (const path of ['/v1/leads', '/v1/audit-logs']) {
      const response = await client.get(path).qs({ publisher: slug }).bearerToken(market.buyerLive)
      response.assertStatus(403)
      assert.equal(response.body().code, 'filter_not_allowed')
    }
    const exported = await client
      .get('/v1/audit-logs')
      .qs({ format: 'json' })
      .bearerToken(market.buyerLive)
    exported.assertStatus(200)
    assert.include(exported.text(), market.leadId)
    assert.notInclude(exported.text(), market.world.publisher.id)
    assert.notInclude(exported.text(), 'publisher_id')
  })

  test('a publisher may not filter the export by buyer', async ({ client, assert }) => {
    const market = await soldLiveLead(client)
    const response = await client
      .get('/v1/audit-logs')
      .qs({ buyer: market.buyer.id })
      .bearerToken(market.world.key)
    response.assertStatus(403)
    assert.equal(response.body().code, 'filter_not_allowed')
  })
})
