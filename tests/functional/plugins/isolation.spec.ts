import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import { leadBody, operatorKey } from '#tests/support/fixtures'
import { compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'
import { VendorServer, installPlugin, labelledPublisher } from '#tests/support/plugins'

const TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555'

/** A HubSpot that takes every upsert: these tests are about who is called, not the contract. */
function anyHubspot() {
  return VendorServer.start(() => ({
    status: 200,
    body: { status: 'COMPLETE', results: [{ id: '1000', new: true }] },
  }))
}

/** A label's publisher, its label's plugin pointed at `apiBase`, and the plugin's endpoint. */
async function labelWithHubspot(client: any, operator: string, apiBase: string) {
  const world = await labelledPublisher()
  await installPlugin(client, operator, world.label.id, 'crm-hubspot', {
    access_token: TOKEN,
    api_base: apiBase,
  })
  const installation = await db
    .from('plugin_installations')
    .where('label_id', world.label.id)
    .where('plugin', 'crm-hubspot')
    .firstOrFail()
  return {
    ...world,
    installationId: installation.id as string,
    endpointId: installation.endpoint_id as string,
  }
}

test.group('Plugins / isolation and the SSRF guard', (group) => {
  group.each.setup(() => compressWebhookClock())

  test("a label's plugin never sees another label's leads", async ({ client, assert, cleanup }) => {
    const hubspotA = await anyHubspot()
    const hubspotB = await anyHubspot()
    const operator = await operatorKey()
    const labelA = await labelWithHubspot(client, operator, hubspotA.base)
    const labelB = await labelWithHubspot(client, operator, hubspotB.base)
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await hubspotA.close()
      await hubspotB.close()
      await WebhookEndpoint.query().whereIn('label_id', [labelA.label.id, labelB.label.id]).delete()
    })

    const submitted = await client
      .post('/v1/leads')
      .bearerToken(labelB.key)
      .json(leadBody(labelB.publisher.slug))
    submitted.assertStatus(201)
    const leadId = submitted.body().id

    // B's own installation receiving the lead shows the event was fanned out: every endpoint's
    // delivery row is written with the event, so A's would exist by now if A were a receiver.
    await eventually(
      () => db.from('plugin_lead_syncs').where('lead_id', leadId).first(),
      "the lead synced to label B's HubSpot"
    )
    assert.isAtLeast(hubspotB.requests.length, 1)
    assert.lengthOf(hubspotA.requests, 0)
    assert.lengthOf(await db.from('webhook_deliveries').where('endpoint_id', labelA.endpointId), 0)
    assert.lengthOf(
      await db.from('plugin_lead_syncs').where('installation_id', labelA.installationId),
      0
    )
  }).timeout(60_000)

  test('an adapter pointed at a private address fails its delivery as ssrf_refused and never dials', async ({
    client,
    assert,
    cleanup,
  }) => {
    const operator = await operatorKey()
    // The cloud metadata address: link-local, not in .env.test's WEBHOOK_ALLOW_PRIVATE.
    const world = await labelWithHubspot(client, operator, 'http://169.254.169.254')
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await WebhookEndpoint.query().where('label_id', world.label.id).delete()
    })

    const tried = await client
      .post(`/v1/labels/${world.label.id}/plugins/crm-hubspot/test`)
      .bearerToken(operator)
    tried.assertStatus(200)
    assert.isFalse(tried.body().ok)
    assert.match(tried.body().detail, /169\.254\.169\.254.*linkLocal/)

    ;(
      await client.post('/v1/leads').bearerToken(world.key).json(leadBody(world.publisher.slug))
    ).assertStatus(201)
    const delivery = await eventually(async () => {
      const response = await client
        .get(`/v1/labels/${world.label.id}/plugins/crm-hubspot/deliveries`)
        .bearerToken(operator)
      const [first] = response.body().data
      return first?.last_error && first
    }, 'the delivery attempted')
    assert.notEqual(delivery.status, 'succeeded')
    const detail = await client.get(`/v1/webhook-deliveries/${delivery.id}`).bearerToken(operator)
    const [attempt] = detail.body().attempt_log
    // Refused before a socket exists: no status, no latency worth a connect timeout.
    assert.equal(attempt.error, 'ssrf_refused')
    assert.isNull(attempt.status_code)
    assert.match(attempt.error_detail, /169\.254\.169\.254/)
  }).timeout(60_000)
})
