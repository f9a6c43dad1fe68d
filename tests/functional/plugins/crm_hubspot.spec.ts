import { strict as check } from 'node:assert'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import { leadBody, operatorKey } from '#tests/support/fixtures'
import { compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'
import { VendorServer, type VendorRequest, labelledPublisher } from '#tests/support/plugins'
import hubspotPlugin from '#plugins/crm-hubspot/index'
import { PluginFailure, type PluginContext } from '#plugins/contract'
import { pluginHttp } from '#services/plugins/plugin_http'

const TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555'

/**
 * HubSpot's contacts API as documented: a bearer private-app token, batch
 * upsert by `idProperty: email` answering `{status, results: [{id, new}]}`,
 * 401 for a wrong token, and its 429 (no Retry-After; the body names the
 * policy) when the ten-second window is spent.
 */
async function fakeHubspot(options: { throttleFirst?: boolean } = {}) {
  const contacts = new Map<string, { id: string; properties: Record<string, string> }>()
  let throttled = false
  return VendorServer.start((request: VendorRequest) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return { status: 401, body: { status: 'error', category: 'INVALID_AUTHENTICATION' } }
    }
    if (request.method === 'GET' && request.path.startsWith('/crm/v3/objects/contacts')) {
      return { status: 200, body: { results: [] } }
    }
    if (request.method !== 'POST' || request.path !== '/crm/v3/objects/contacts/batch/upsert') {
      return { status: 404, body: { status: 'error' } }
    }
    if (options.throttleFirst && !throttled) {
      throttled = true
      return {
        status: 429,
        headers: {
          'x-hubspot-ratelimit-interval-milliseconds': '10000',
          'x-hubspot-ratelimit-remaining': '0',
        },
        body: {
          status: 'error',
          message: 'You have reached your ten_secondly_rolling limit.',
          errorType: 'RATE_LIMIT',
          policyName: 'TEN_SECONDLY_ROLLING',
        },
      }
    }
    const results = request.json.inputs.map((input: any) => {
      const known = contacts.get(input.id)
      const contact = known ?? { id: String(1000 + contacts.size), properties: {} }
      Object.assign(contact.properties, input.properties)
      contacts.set(input.id, contact)
      return { id: contact.id, new: !known, properties: contact.properties }
    })
    return { status: 200, body: { status: 'COMPLETE', results } }
  }).then((server) => Object.assign(server, { contacts }))
}

test.group('Plugins / crm-hubspot', (group) => {
  group.each.setup(() => compressWebhookClock())

  test('a lead of the label is upserted as a contact after a 429, written back, replayed without a duplicate', async ({
    client,
    assert,
    cleanup,
  }) => {
    const hubspot = await fakeHubspot({ throttleFirst: true })
    const operator = await operatorKey()
    const mine = await labelledPublisher()
    const other = await labelledPublisher()
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await hubspot.close()
      await WebhookEndpoint.query().whereIn('label_id', [mine.label.id, other.label.id]).delete()
    })

    const installed = await client
      .post(`/v1/labels/${mine.label.id}/plugins`)
      .bearerToken(operator)
      .json({
        plugin: 'crm-hubspot',
        settings: {
          access_token: TOKEN,
          api_base: hubspot.base,
          field_mapping: {
            email: 'contact.email',
            phone: 'contact.phone',
            lead_source: 'provenance.source',
          },
        },
      })
    installed.assertStatus(201)

    const submitted = await client
      .post('/v1/leads')
      .bearerToken(mine.key)
      .json(leadBody(mine.publisher.slug, { contact: { email: 'anna.jansen@example.nl' } }))
    submitted.assertStatus(201)
    const leadId = submitted.body().id
    // Another label's lead never reaches this label's HubSpot.
    ;(
      await client.post('/v1/leads').bearerToken(other.key).json(leadBody(other.publisher.slug))
    ).assertStatus(201)

    const sync = await eventually(
      () => db.from('plugin_lead_syncs').where('lead_id', leadId).first(),
      'the contact id written back to the lead'
    )
    assert.equal(sync.external_id, '1000')
    assert.equal(sync.plugin, 'crm-hubspot')
    const upserts = hubspot.requests.filter((r) => r.path.endsWith('/batch/upsert'))
    assert.lengthOf(upserts, 2)
    assert.deepEqual(upserts[1].json, {
      inputs: [
        {
          idProperty: 'email',
          id: 'anna.jansen@example.nl',
          properties: {
            email: 'anna.jansen@example.nl',
            phone: submitted.body().contact?.phone ?? upserts[1].json.inputs[0].properties.phone,
            lead_source: 'facebook',
          },
        },
      ],
    })
    assert.equal(hubspot.contacts.size, 1)
    const synced = await client.get(`/v1/leads/${leadId}/plugin-syncs`).bearerToken(operator)
    assert.containsSubset(synced.body().data, [{ plugin: 'crm-hubspot', external_id: '1000' }])
    ;(await client.get(`/v1/leads/${leadId}/plugin-syncs`).bearerToken(mine.key)).assertStatus(403)
    ;(await client.get(`/v1/leads/${leadId}/plugin-syncs`).bearerToken(other.key)).assertStatus(404)

    // The delivery log is the webhooks': two attempts, the first a 429 held back by its window.
    const deliveries = await eventually(async () => {
      const response = await client
        .get(`/v1/labels/${mine.label.id}/plugins/crm-hubspot/deliveries`)
        .bearerToken(operator)
      const data = response.body().data
      return data.length === 1 && data[0].status === 'succeeded' && data
    }, 'the delivery recorded')
    const detail = await client
      .get(`/v1/webhook-deliveries/${deliveries[0].id}`)
      .bearerToken(operator)
    assert.deepEqual(
      detail.body().attempt_log.map((attempt: any) => attempt.status_code),
      [429, 200]
    )

    // Replay and retry go through the same machinery; the upsert by e-mail keeps one contact.
    const eventId = deliveries[0].event_id
    const upsertCount = () =>
      hubspot.requests.filter((r) => r.path.endsWith('/batch/upsert')).length
    ;(await client.post(`/v1/events/${eventId}/replay`).bearerToken(operator)).assertStatus(202)
    await eventually(() => upsertCount() === 3, 'the replay sent')
    await eventually(async () => {
      const retried = await client
        .post(`/v1/webhook-deliveries/${deliveries[0].id}/retry`)
        .bearerToken(operator)
      return retried.status() === 202
    }, 'the retry accepted once the replay is recorded')
    await eventually(() => upsertCount() === 4, 'the retry sent')
    assert.equal(hubspot.contacts.size, 1)

    // The plugin acts under its own actor; the access log carries ids, never the e-mail.
    const entries = await db
      .from('access_log')
      .where('actor', 'system:plugin-crm-hubspot')
      .where('subject_id', leadId)
    assert.isAtLeast(entries.length, 1)
    assert.notInclude(JSON.stringify(entries), 'anna.jansen')
  }).timeout(60_000)

  test('test connection says whether HubSpot takes the token', async ({
    client,
    assert,
    cleanup,
  }) => {
    const hubspot = await fakeHubspot()
    const operator = await operatorKey()
    const { label } = await labelledPublisher()
    cleanup(async () => {
      await hubspot.close()
      await WebhookEndpoint.query().where('label_id', label.id).delete()
    })
    const base = `/v1/labels/${label.id}/plugins`
    await client
      .post(base)
      .bearerToken(operator)
      .json({ plugin: 'crm-hubspot', settings: { access_token: TOKEN, api_base: hubspot.base } })
    const ok = await client.post(`${base}/crm-hubspot/test`).bearerToken(operator)
    ok.assertStatus(200)
    assert.isTrue(ok.body().ok)

    await client
      .patch(`${base}/crm-hubspot`)
      .bearerToken(operator)
      .json({ settings: { access_token: 'wrong' } })
    const refused = await client.post(`${base}/crm-hubspot/test`).bearerToken(operator)
    refused.assertStatus(200)
    assert.isFalse(refused.body().ok)
    assert.match(refused.body().detail, /401/)
    assert.notInclude(refused.text(), 'wrong')
  })
})

test.group("Plugins / crm-hubspot / HubSpot's limits", () => {
  /** HubSpot answering every upsert with this 429; `handle()` is called as the transport calls it. */
  async function refusal(answer: { headers?: Record<string, string>; body?: unknown }) {
    const hubspot = await VendorServer.start(() => ({ status: 429, ...answer }))
    const context: PluginContext = {
      settings: {
        access_token: TOKEN,
        api_base: hubspot.base,
        field_mapping: { email: 'contact.email' },
      },
      http: pluginHttp,
      labelId: 'label',
      environment: 'live',
      lead: async (id) => ({ id, contact: { email: 'limits@example.nl' } }),
      previousSync: async () => null,
      recordSync: async () => {},
      exclusive: (_key, work) => work(),
    }
    const event = {
      event_id: 'evt',
      type: 'lead.received',
      created: new Date().toISOString(),
      data: { lead_id: 'lead-1' },
    }
    try {
      await hubspotPlugin.handle(event, context)
      throw new Error('the 429 was not reported')
    } catch (error) {
      if (!(error instanceof PluginFailure)) throw error
      // One record per delivery, through the batch upsert endpoint.
      check.deepEqual(hubspot.requests[0].json.inputs, [
        {
          idProperty: 'email',
          id: 'limits@example.nl',
          properties: { email: 'limits@example.nl' },
        },
      ])
      return error.details
    } finally {
      await hubspot.close()
    }
  }

  test('the ten-second window waits its interval, the daily limit until the next day, a Retry-After as sent', async ({
    assert,
  }) => {
    const window = await refusal({
      headers: {
        'x-hubspot-ratelimit-interval-milliseconds': '10000',
        'x-hubspot-ratelimit-max': '100',
        'x-hubspot-ratelimit-remaining': '0',
      },
      body: { status: 'error', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' },
    })
    assert.equal(window.status, 429)
    assert.equal(window.retryAfter, '10')
    assert.equal(window.rateLimitHeaders?.['x-hubspot-ratelimit-remaining'], '0')

    const untilMidnight = () => {
      const now = new Date()
      return (
        (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) /
        1000
      )
    }
    const daily = await refusal({
      body: { status: 'error', errorType: 'RATE_LIMIT', policyName: 'DAILY' },
    })
    assert.approximately(Number(daily.retryAfter), untilMidnight(), 5)
    // The daily limit is also read from the headers when the body does not name it.
    const dailyByHeader = await refusal({
      headers: {
        'x-hubspot-ratelimit-daily': '250000',
        'x-hubspot-ratelimit-daily-remaining': '0',
      },
      body: { status: 'error', message: 'limit' },
    })
    assert.approximately(Number(dailyByHeader.retryAfter), untilMidnight(), 5)

    const secondly = await refusal({
      headers: {
        'x-hubspot-ratelimit-secondly': '10',
        'x-hubspot-ratelimit-secondly-remaining': '0',
      },
    })
    assert.equal(secondly.retryAfter, '1')
    const told = await refusal({ headers: { 'retry-after': '7' }, body: { policyName: 'DAILY' } })
    assert.equal(told.retryAfter, '7')
    const bare = await refusal({})
    assert.equal(bare.retryAfter, '10')
  })
})
