import { createHmac } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createKey, leadBody } from '#tests/support/fixtures'
import { installPlugin, labelledPublisher } from '#tests/support/plugins'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

const BASE = `http://${process.env.HOST ?? 'localhost'}:${process.env.PORT ?? 3334}`
const SIGNING_KEY = 'b1f0c2e3d4a5968778695a4b3c2d1e0f'
const freshPhone = () => `+3161${String(Math.floor(Math.random() * 9_000_000) + 1_000_000)}`
const uniqueCall = () => `CAL${Math.random().toString(36).slice(2, 12)}`

/** CallRail's documented scheme, computed independently of the app: base64(HMAC-SHA1(key, body)). */
const sign = (key: string, body: string) =>
  createHmac('sha1', key).update(body, 'utf8').digest('base64')

/** A post-call body as CallRail sends it: the fields Leadgate reads among many it does not. */
function postCall(phone: string, callId = uniqueCall()) {
  return {
    answered: true,
    business_phone_number: '+13125550100',
    call_type: 'answered',
    company_id: 'COM8154748ae6bd4e278a7cddd38a662f4f',
    company_name: 'Demo Energy',
    customer_city: 'Amsterdam',
    customer_name: 'J JANSEN',
    customer_phone_number: phone,
    direction: 'inbound',
    duration: 95,
    formatted_tracking_phone_number: '(800) 555-0102',
    recording: 'https://app.callrail.example/calls/CAL1/recording',
    resource_id: callId,
    source_name: 'Google Ads',
    start_time: new Date().toISOString(),
    tracking_phone_number: '+18005550102',
    voicemail: false,
  }
}

/** Posts exactly these bytes (the signature is over them), as CallRail would. */
async function postRaw(key: string, body: string, signature?: string) {
  const response = await fetch(`${BASE}/v1/calls/callrail`, {
    method: 'POST',
    headers: {
      'authorization': `Bearer ${key}`,
      'content-type': 'application/json',
      ...(signature ? { signature } : {}),
    },
    body,
  })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as any,
  }
}

test.group('Calls / CallRail signature', () => {
  test("with the label's signing key set, a signed post-call webhook attaches and a tampered or unsigned one is refused", async ({
    client,
    assert,
    cleanup,
  }) => {
    const operator = (await createKey()).secret
    const world = await labelledPublisher()
    const installation = await installPlugin(client, operator, world.label.id, 'calls-callrail', {
      signing_key: SIGNING_KEY,
    })
    cleanup(async () => {
      await client
        .delete(`/v1/labels/${world.label.id}/plugins/${installation.id}`)
        .bearerToken(operator)
    })
    assert.deepEqual(installation.secrets_set, ['signing_key'])
    assert.notInclude(JSON.stringify(installation), SIGNING_KEY)
    assert.deepEqual(installation.events, [])
    // The portal's form sends the (empty) list of events it offers; that is accepted too.
    const patched = await client
      .patch(`/v1/labels/${world.label.id}/plugins/calls-callrail`)
      .bearerToken(operator)
      .json({ events: [], settings: { signing_key: SIGNING_KEY } })
    patched.assertStatus(200)
    assert.deepEqual(patched.body().events, [])

    const phone = freshPhone()
    const lead = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug, { contact: { phone } }))
    lead.assertStatus(201)

    // Signed with the key: CallRail's fields beyond the ones Leadgate reads are accepted.
    const body = JSON.stringify(postCall(phone))
    const signed = await postRaw(world.key, body, sign(SIGNING_KEY, body))
    assert.equal(signed.status, 201, JSON.stringify(signed.body))
    assert.containsSubset(signed.body, {
      vendor: 'callrail',
      status: 'attached',
      lead_id: lead.body().id,
      matched_by: 'phone',
      duration_seconds: 95,
      campaign: 'Google Ads',
    })

    const before = await snapshotDatabase()
    const other = postCall(phone)
    const otherBody = JSON.stringify(other)
    const tampered = otherBody.replace('"duration":95', '"duration":5')
    const refused = [
      // The signature of the original body over a changed one.
      await postRaw(world.key, tampered, sign(SIGNING_KEY, otherBody)),
      // Signed with another key.
      await postRaw(world.key, otherBody, sign('not-the-signing-key', otherBody)),
      // Not signed at all.
      await postRaw(world.key, otherBody),
      // A hex digest is not CallRail's encoding.
      await postRaw(
        world.key,
        otherBody,
        createHmac('sha1', SIGNING_KEY).update(otherBody).digest('hex')
      ),
    ]
    for (const answer of refused) {
      assert.equal(answer.status, 401)
      assert.match(String(answer.type), /problem\+json/)
      assert.equal(answer.body.code, 'invalid_signature')
    }
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
    assert.lengthOf(await db.from('calls').where('vendor_call_id', other.resource_id), 0)
  })

  test('the sandbox key is checked against the sandbox installation, and a label without a key is unchanged', async ({
    client,
    assert,
    cleanup,
  }) => {
    const operator = (await createKey()).secret
    const world = await labelledPublisher()
    const liveInstallation = await installPlugin(
      client,
      operator,
      world.label.id,
      'calls-callrail',
      { signing_key: SIGNING_KEY }
    )
    cleanup(async () => {
      await client
        .delete(`/v1/labels/${world.label.id}/plugins/${liveInstallation.id}`)
        .bearerToken(operator)
    })
    // No sandbox installation: the sandbox key's requests need no signature (the live key is not
    // theirs), and take only the fields Leadgate reads, as before.
    const sandboxKey = (
      await createKey({ publisherId: world.publisher.id, environment: 'sandbox' })
    ).secret
    const { resource_id: resourceId, start_time: startTime } = postCall(freshPhone())
    const body = JSON.stringify({ resource_id: resourceId, start_time: startTime, answered: true })
    const unsigned = await postRaw(sandboxKey, body)
    assert.equal(unsigned.status, 201, JSON.stringify(unsigned.body))
    assert.equal(unsigned.body.environment, 'sandbox')
    assert.equal((await postRaw(sandboxKey, JSON.stringify(postCall(freshPhone())))).status, 422)

    // The sandbox installation's own key then applies to sandbox calls, and only it.
    const sandboxOperator = (await createKey({ environment: 'sandbox' })).secret
    const sandboxInstallation = await installPlugin(
      client,
      sandboxOperator,
      world.label.id,
      'calls-callrail',
      { signing_key: 'sandbox-signing-key' }
    )
    cleanup(async () => {
      await client
        .delete(`/v1/labels/${world.label.id}/plugins/${sandboxInstallation.id}`)
        .bearerToken(sandboxOperator)
    })
    const next = JSON.stringify(postCall(freshPhone()))
    assert.equal((await postRaw(sandboxKey, next, sign(SIGNING_KEY, next))).status, 401)
    const good = await postRaw(sandboxKey, next, sign('sandbox-signing-key', next))
    assert.equal(good.status, 201, JSON.stringify(good.body))
    assert.equal(good.body.environment, 'sandbox')
  })
})
