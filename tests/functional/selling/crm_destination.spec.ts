import { test } from '@japa/runner'
import { createBuyer } from '#tests/support/fixtures'
import { VendorServer } from '#tests/support/plugins'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  factsOf,
} from '#tests/functional/routing/routing_support'
import {
  attemptsOf,
  createDestination,
  salesOf,
  sell,
  sellingWorld,
} from '#tests/functional/selling/selling_support'
import TenancyService from '#services/platform/tenancy_service'

const TOKEN = 'pat-eu1-buyers-own-token'

/** HubSpot's batch upsert as HubSpot documents it, or a 500 when `failing`. */
function buyersHubspot(failing = false) {
  return VendorServer.start((request) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: {} }
    if (failing) return { status: 500, body: { status: 'error', message: 'internal error' } }
    if (request.path !== '/crm/v3/objects/contacts/batch/upsert') return { status: 404 }
    return {
      status: 200,
      body: {
        status: 'COMPLETE',
        results: [{ id: '90210', new: true, properties: request.json.inputs[0].properties }],
      },
    }
  })
}

test.group('Selling / a crm destination', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the buyer’s own HubSpot gets the lead, and its contact id is the buyer’s lead id', async ({
    client,
    assert,
    cleanup,
  }) => {
    const hubspot = await buyersHubspot()
    cleanup(() => hubspot.close())
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const destination = await createDestination(
      buyer.id,
      'crm',
      { crm: { plugin: 'crm-hubspot', settings: { api_base: hubspot.base } } },
      { access_token: TOKEN }
    )
    const rule = await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: destination.id,
    })
    const leadId = await acceptedLead(client, world, { contact: { name: 'Anna Bakker' } })

    assert.deepEqual(await sell(leadId), {
      outcome: 'matched',
      leadId,
      ruleId: rule.id,
      buyerId: buyer.id,
    })
    assert.lengthOf(hubspot.requests, 1)
    assert.equal(hubspot.requests[0].json.inputs[0].properties.firstname, 'Anna Bakker')
    const [sale] = await salesOf(leadId)
    assert.include(sale, { buyer_id: buyer.id, buyer_lead_id: '90210' })
  })

  test('a CRM that fails is an error attempt, and the lead falls through', async ({
    client,
    assert,
    cleanup,
  }) => {
    const hubspot = await buyersHubspot(true)
    cleanup(() => hubspot.close())
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const destination = await createDestination(
      buyer.id,
      'crm',
      { crm: { plugin: 'crm-hubspot', settings: { api_base: hubspot.base } } },
      { access_token: TOKEN }
    )
    await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      destinationId: destination.id,
      priority: 5,
    })
    const fallback = await createRule({ labelIds: [world.label.id] })
    const leadId = await acceptedLead(client, world)

    assert.include(await sell(leadId), { outcome: 'matched', buyerId: fallback.buyerId })
    const [failed] = await attemptsOf(TenancyService.schemaNameFor(world.publisher.id), leadId)
    assert.include(failed, { outcome: 'error', reason: 'http_500', http_status: 500 })
    assert.equal((await factsOf(leadId)).buyer_id, fallback.buyerId)
  })
})
