import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import {
  createBuyer,
  createKey,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
const uniqueCall = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`
/** A Dutch mobile number nobody else in the test database has. */
const freshPhone = () => `+3161${String(Math.floor(Math.random() * 9_000_000) + 1_000_000)}`

async function submit(client: any, key: string, slug: string, phone: string) {
  const response = await client
    .post('/v1/leads')
    .bearerToken(key)
    .json(leadBody(slug, { contact: { phone } }))
  if (response.status() !== 201) throw new Error(`lead refused: ${response.text()}`)
  return response.body().id as string
}

test.group('Calls / attach to leads', () => {
  test('a lead id passed through attaches; a repeat updates without a second audit entry or event', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const leadId = await submit(client, key, publisher.slug, freshPhone())
    const callId = uniqueCall('api')
    const first = await client
      .post('/v1/calls')
      .bearerToken(key)
      .json({
        call_id: callId,
        lead_id: leadId,
        started_at: minutesAgo(1),
        duration_seconds: 30,
        disposition: 'answered',
      })
    first.assertStatus(201)
    assert.containsSubset(first.body(), {
      status: 'attached',
      lead_id: leadId,
      matched_by: 'lead_id',
      vendor: 'api',
      duration_seconds: 30,
    })
    const repeat = await client
      .post('/v1/calls')
      .bearerToken(key)
      .json({
        call_id: callId,
        lead_id: leadId,
        started_at: minutesAgo(1),
        duration_seconds: 95,
        disposition: 'converted',
      })
    repeat.assertStatus(200)
    assert.equal(repeat.body().id, first.body().id)
    assert.equal(repeat.body().duration_seconds, 95)

    const entries = await db
      .from('audit.entries')
      .where('lead_id', leadId)
      .where('event', 'call.attached')
    assert.lengthOf(entries, 1)
    assert.match(entries[0].actor, /^api_key:/)
    const events = await db
      .from('outbox_events')
      .where('lead_id', leadId)
      .where('type', 'call.attached')
    assert.lengthOf(events, 1)
    assert.containsSubset(events[0].payload.data, { lead_id: leadId, matched_by: 'lead_id' })
    assert.notProperty(events[0].payload.data, 'caller_number')

    const calls = await client.get(`/v1/leads/${leadId}/calls`).bearerToken(key)
    calls.assertStatus(200)
    assert.deepEqual(
      calls.body().data.map((call: any) => call.disposition),
      ['converted']
    )
  })

  test('by caller phone within the window: one lead attaches, several are reported, none is unmatched', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const a = await livePublisher()
    const b = await livePublisher()
    const phone = freshPhone()
    const leadId = await submit(client, a.key, a.publisher.slug, phone)

    // The caller's number as the tracking line saw it, in national form: normalised like intake's.
    const national = `0${phone.slice(3)}`
    const one = await client
      .post('/v1/calls')
      .bearerToken(operator)
      .json({
        call_id: uniqueCall('one'),
        caller_number: national,
        country: 'NL',
        started_at: new Date().toISOString(),
      })
    one.assertStatus(201)
    assert.containsSubset(one.body(), { status: 'attached', lead_id: leadId, matched_by: 'phone' })

    // Before the lead arrived: outside the window.
    const early = await client
      .post('/v1/calls')
      .bearerToken(operator)
      .json({ call_id: uniqueCall('early'), caller_number: phone, started_at: minutesAgo(60) })
    assert.containsSubset(early.body(), { status: 'unmatched', lead_id: null })

    const second = await submit(client, b.key, b.publisher.slug, phone)
    const two = await client
      .post('/v1/calls')
      .bearerToken(operator)
      .json({
        call_id: uniqueCall('two'),
        caller_number: phone,
        started_at: new Date().toISOString(),
      })
    two.assertStatus(201)
    assert.containsSubset(two.body(), { status: 'ambiguous', lead_id: null })
    assert.sameMembers(two.body().candidates, [leadId, second])

    // A publisher searches only its own leads: for it the phone is not ambiguous.
    const own = await client
      .post('/v1/calls')
      .bearerToken(b.key)
      .json({
        call_id: uniqueCall('own'),
        caller_number: phone,
        started_at: new Date().toISOString(),
      })
    assert.containsSubset(own.body(), { status: 'attached', lead_id: second })
  })

  test('vendor payloads map their documented fields', async ({ client, assert }) => {
    const { publisher, key } = await livePublisher()
    const phone = freshPhone()
    const leadId = await submit(client, key, publisher.slug, phone)
    const now = new Date()
    const payloads = {
      ringba: {
        inboundCallId: uniqueCall('RGB'),
        inboundPhoneNumber: phone,
        dialedNumber: '+18005550100',
        callStartTime: now.toISOString(),
        callLengthInSeconds: 61,
        recordingUrl: 'https://media.ringba.example/rec.mp3',
        campaignName: 'Solar NL',
      },
      retreaver: {
        call_uuid: uniqueCall('RTV'),
        caller_number: phone,
        dialed_number: '+18005550101',
        start_time: now.toISOString(),
        duration: 62,
        campaign_name: 'Solar NL',
        tags: { lead_id: leadId },
      },
      callrail: {
        resource_id: uniqueCall('CAL'),
        customer_phone_number: phone,
        tracking_phone_number: '+18005550102',
        start_time: now.toISOString(),
        duration: 63,
        answered: true,
        recording: 'https://app.callrail.example/calls/rec',
        source_name: 'Google Ads',
      },
      invoca: {
        complete_call_id: uniqueCall('INV'),
        calling_phone_number: phone,
        destination_phone_number: '+18005550103',
        start_time_utc: now.getTime(),
        duration: 64,
        advertiser_campaign_name: 'Solar NL',
        call_result_description_detail: 'Qualified',
      },
    }
    for (const [vendor, payload] of Object.entries(payloads)) {
      const response = await client.post(`/v1/calls/${vendor}`).bearerToken(key).json(payload)
      response.assertStatus(201)
      assert.containsSubset(
        response.body(),
        { vendor, status: 'attached', lead_id: leadId },
        vendor
      )
    }
    const calls = (await client.get(`/v1/leads/${leadId}/calls`).bearerToken(key)).body().data
    const byVendor = Object.fromEntries(calls.map((call: any) => [call.vendor, call]))
    assert.containsSubset(byVendor.callrail, {
      tracking_number: '+18005550102',
      duration_seconds: 63,
      disposition: 'answered',
      recording_url: 'https://app.callrail.example/calls/rec',
      campaign: 'Google Ads',
    })
    assert.containsSubset(byVendor.retreaver, { matched_by: 'lead_id', duration_seconds: 62 })
    assert.containsSubset(byVendor.invoca, { disposition: 'Qualified', duration_seconds: 64 })
    assert.equal(new Date(byVendor.invoca.started_at).getTime(), now.getTime())
  })

  test('who sees a call, and bad input changes nothing', async ({ client, assert }) => {
    const mine = await livePublisher()
    const other = await livePublisher()
    const buyer = await createBuyer()
    const { secret: buyerKey } = await createKey({ buyerId: buyer.id })
    const leadId = await submit(client, mine.key, mine.publisher.slug, freshPhone())
    await client
      .post('/v1/calls')
      .bearerToken(mine.key)
      .json({ call_id: uniqueCall('seen'), lead_id: leadId, started_at: minutesAgo(1) })
    ;(await client.get(`/v1/leads/${leadId}/calls`).bearerToken(other.key)).assertStatus(404)
    ;(await client.get(`/v1/leads/${leadId}/calls`).bearerToken(buyerKey)).assertStatus(404)
    ;(await client.get(`/v1/leads/${leadId}/calls`).bearerToken(await operatorKey())).assertStatus(
      200
    )

    const before = await snapshotDatabase()
    const bad = [
      ['/v1/calls', { call_id: 'x' }],
      ['/v1/calls', { call_id: 'x', started_at: 'yesterday' }],
      ['/v1/calls', { call_id: 'x', started_at: minutesAgo(1), duration_seconds: -1 }],
      ['/v1/calls', { call_id: 'x', started_at: minutesAgo(1), recording_url: 'ftp://x' }],
      ['/v1/calls', { call_id: 'x', started_at: minutesAgo(1), nonsense: true }],
      // Another publisher's lead is not this publisher's to attach to.
      ['/v1/calls', { call_id: 'x', started_at: minutesAgo(1), lead_id: leadId }],
      ['/v1/calls/ringba', { inboundPhoneNumber: '+31612345678' }],
      ['/v1/calls/invoca', ['not', 'an', 'object']],
    ] as const
    for (const [path, body] of bad) {
      const response = await client.post(path).bearerToken(other.key).json(body)
      // A body that is not an object is refused before validation (400).
      assert.oneOf(response.status(), [400, 422], `${path} ${JSON.stringify(body)}`)
      assert.match(String(response.header('content-type')), /problem\+json/)
    }
    ;(await client.post('/v1/calls/twilio').bearerToken(other.key).json({})).assertStatus(404)
    ;(
      await client
        .post('/v1/calls')
        .bearerToken(buyerKey)
        .json({ call_id: 'x', started_at: minutesAgo(1) })
    ).assertStatus(403)
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
  })
})
