import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import { createKey, leadBody } from '#tests/support/fixtures'
import { compressWebhookClock, eventually, sleep, startRuntime } from '#tests/support/webhooks'
import {
  VendorServer,
  type VendorRequest,
  installPlugin,
  labelledPublisher,
} from '#tests/support/plugins'

/** A HubSpot that takes one token only: the settings of one installation reach one server. */
function hubspotFor(token: string) {
  return VendorServer.start((request: VendorRequest) => {
    if (request.headers.authorization !== `Bearer ${token}`) {
      return { status: 401, body: { status: 'error', category: 'INVALID_AUTHENTICATION' } }
    }
    if (request.method !== 'POST' || request.path !== '/crm/v3/objects/contacts/batch/upsert') {
      return { status: 404, body: { status: 'error' } }
    }
    const results = request.json.inputs.map((input: any, index: number) => ({
      id: `${token.slice(0, 4)}-${index}`,
      new: true,
      properties: input.properties,
    }))
    return { status: 200, body: { status: 'COMPLETE', results } }
  })
}

const upsertedEmails = (server: VendorServer) =>
  server.requests.flatMap((request) =>
    request.path.endsWith('/batch/upsert') ? request.json.inputs.map((input: any) => input.id) : []
  )

test.group('Plugins / sandbox settings are separate', (group) => {
  group.each.setup(() => compressWebhookClock())

  test("a sandbox lead syncs only through the sandbox installation's settings, a live lead only through the live one's", async ({
    client,
    assert,
    cleanup,
  }) => {
    const liveHubspot = await hubspotFor('live-token')
    const sandboxHubspot = await hubspotFor('sandbox-token')
    const world = await labelledPublisher()
    const { secret: sandboxPublisherKey } = await createKey({
      publisherId: world.publisher.id,
      environment: 'sandbox',
    })
    const liveOperator = (await createKey()).secret
    const sandboxOperator = (await createKey({ environment: 'sandbox' })).secret
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await liveHubspot.close()
      await sandboxHubspot.close()
      await WebhookEndpoint.query().where('label_id', world.label.id).delete()
    })

    // One plugin, one label, two installations: each environment its own token and server.
    const live = await installPlugin(client, liveOperator, world.label.id, 'crm-hubspot', {
      access_token: 'live-token',
      api_base: liveHubspot.base,
    })
    const sandbox = await installPlugin(client, sandboxOperator, world.label.id, 'crm-hubspot', {
      access_token: 'sandbox-token',
      api_base: sandboxHubspot.base,
    })
    assert.equal(live.environment, 'live')
    assert.equal(sandbox.environment, 'sandbox')
    assert.notEqual(live.id, sandbox.id)
    // Each environment's key sees its own installation and its own settings only.
    const seenBySandbox = await client
      .get(`/v1/labels/${world.label.id}/plugins/crm-hubspot`)
      .bearerToken(sandboxOperator)
    assert.equal(seenBySandbox.body().id, sandbox.id)
    assert.equal(seenBySandbox.body().settings.api_base, sandboxHubspot.base)

    const sandboxLead = await client
      .post('/v1/leads')
      .bearerToken(sandboxPublisherKey)
      .json(leadBody(world.publisher.slug, { contact: { email: 'sandbox.lead@example.nl' } }))
    sandboxLead.assertStatus(201)
    const liveLead = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { email: 'live.lead@example.nl' } }))
    liveLead.assertStatus(201)

    const sandboxSync = await eventually(
      () => db.from('plugin_lead_syncs').where('lead_id', sandboxLead.body().id).first(),
      'the sandbox lead synced'
    )
    const liveSync = await eventually(
      () => db.from('plugin_lead_syncs').where('lead_id', liveLead.body().id).first(),
      'the live lead synced'
    )
    assert.equal(sandboxSync.installation_id, sandbox.id)
    assert.equal(sandboxSync.external_id, 'sand-0')
    assert.equal(liveSync.installation_id, live.id)
    assert.equal(liveSync.external_id, 'live-0')

    // Give a stray delivery the time to arrive before judging what each server received.
    await sleep(500)
    assert.deepEqual(upsertedEmails(sandboxHubspot), ['sandbox.lead@example.nl'])
    assert.deepEqual(upsertedEmails(liveHubspot), ['live.lead@example.nl'])
    // No request of one installation ever reached the other's server (the token would be refused).
    assert.isTrue(
      liveHubspot.requests.every((r) => r.headers.authorization === 'Bearer live-token')
    )
    assert.isTrue(
      sandboxHubspot.requests.every((r) => r.headers.authorization === 'Bearer sandbox-token')
    )
    // Each installation's endpoint holds the deliveries of its own environment's lead only.
    const deliveriesOf = (endpointId: string) =>
      db
        .from('webhook_deliveries as d')
        .join('outbox_events as e', 'e.id', 'd.event_id')
        .where('d.endpoint_id', endpointId)
        .select('e.lead_id', 'e.environment')
    const endpoints = await db
      .from('plugin_installations')
      .whereIn('id', [live.id, sandbox.id])
      .select('id', 'endpoint_id')
    const endpointOf = (id: string) => endpoints.find((row) => row.id === id)!.endpoint_id
    const sandboxDeliveries = await deliveriesOf(endpointOf(sandbox.id))
    const liveDeliveries = await deliveriesOf(endpointOf(live.id))
    assert.isNotEmpty(sandboxDeliveries)
    assert.isTrue(
      sandboxDeliveries.every(
        (row) => row.environment === 'sandbox' && row.lead_id === sandboxLead.body().id
      )
    )
    assert.isNotEmpty(liveDeliveries)
    assert.isTrue(
      liveDeliveries.every(
        (row) => row.environment === 'live' && row.lead_id === liveLead.body().id
      )
    )
  }).timeout(60_000)
})
