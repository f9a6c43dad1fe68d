import { test } from '@japa/runner'
import Publisher from '#models/publisher'
import AccessLogEntry from '#models/access_log_entry'
import {
  createBuyer,
  createKey,
  createPublisher,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'

const confirmPath = (id: string) => `/v1/publishers/${id}/quality-rules/confirm`
const goLivePath = (id: string) => `/v1/publishers/${id}/go-live-request`

function logged(publisherId: string, action: string) {
  return AccessLogEntry.query().where('subject_id', publisherId).where('action', action)
}

/** What a refused step must leave alone: the publisher's row and the access log. */
function stateOf(publisherId: string) {
  return databaseState(['access_log'], [{ table: 'publishers', id: publisherId }])
}

test.group('Onboarding / the publisher walks through it', () => {
  test('choose a method, confirm the rules, test in the sandbox, ask to go live, the operator approves', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const own = await createKey({ publisherId: publisher.id })
    const operator = await operatorKey()
    const show = async () =>
      (await client.get(`/v1/publishers/${publisher.id}`).bearerToken(own.secret)).body()

    assert.deepEqual((await show()).onboarding, {
      step: 'choose_delivery_method',
      rules_version: 0,
      rules_confirmed_at: null,
      sandbox_leads: 0,
      go_live_requested_at: null,
      went_live_at: null,
    })

    const chosen = await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(own.secret)
      .json({ delivery_methods: ['api'] })
    assert.equal(chosen.body().onboarding.step, 'confirm_quality_rules')

    const early = await client.post(goLivePath(publisher.id)).bearerToken(own.secret)
    early.assertStatus(409)
    assert.equal(early.body().code, 'rules_not_confirmed')
    assert.isNull((await Publisher.findOrFail(publisher.id)).goLiveRequestedAt)

    const confirmed = await client
      .post(confirmPath(publisher.id))
      .bearerToken(own.secret)
      .json({ rules_version: 0 })
    confirmed.assertStatus(200)
    assert.equal(confirmed.body().onboarding.step, 'test_in_sandbox')
    assert.isString(confirmed.body().onboarding.rules_confirmed_at)
    const stored = await Publisher.findOrFail(publisher.id)
    assert.equal(stored.rulesConfirmedVersion, 0)
    assert.isNotNull(stored.rulesConfirmedAt)
    const [confirmation] = await logged(publisher.id, 'quality_rules.confirmed')
    assert.equal(confirmation.actor, `api_key:${own.apiKey.id}`)
    assert.equal(confirmation.publisherId, publisher.id)
    assert.deepEqual(confirmation.details, { rules_version: 0 })

    // A sandbox lead is the test; live delivery is still refused until the operator approves.
    const sandbox = await createKey({ publisherId: publisher.id, environment: 'sandbox' })
    ;(
      await client.post('/v1/leads').bearerToken(sandbox.secret).json(leadBody(publisher.slug))
    ).assertStatus(201)
    assert.containSubset((await show()).onboarding, {
      step: 'request_go_live',
      sandbox_leads: 1,
    })

    const requested = await client.post(goLivePath(publisher.id)).bearerToken(own.secret)
    requested.assertStatus(200)
    assert.equal(requested.body().onboarding.step, 'awaiting_approval')
    const requestedAt = requested.body().onboarding.go_live_requested_at
    assert.isString(requestedAt)
    const [request] = await logged(publisher.id, 'publisher.go_live_requested')
    assert.deepEqual(request.details, { rules_version: 0, sandbox_leads: 1 })

    // Asking again changes nothing.
    const before = await stateOf(publisher.id)
    const again = await client.post(goLivePath(publisher.id)).bearerToken(own.secret)
    again.assertStatus(200)
    assert.equal(again.body().onboarding.go_live_requested_at, requestedAt)
    ;(await client.post(confirmPath(publisher.id)).bearerToken(own.secret).json({})).assertStatus(
      200
    )
    assert.deepEqual(await stateOf(publisher.id), before)

    const live = await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(operator)
      .json({ status: 'live' })
    live.assertStatus(200)
    assert.equal(live.body().onboarding.step, 'monitor')
    assert.isString(live.body().onboarding.went_live_at)
    assert.equal((await show()).status, 'live')
  })

  test('the operator may take the steps on the publisher’s behalf, as itself in the log', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const operator = await createKey()
    await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(operator.secret)
      .json({ delivery_methods: ['form'] })
    ;(await client.post(confirmPath(publisher.id)).bearerToken(operator.secret)).assertStatus(200)
    const requested = await client.post(goLivePath(publisher.id)).bearerToken(operator.secret)
    requested.assertStatus(200)
    assert.equal(requested.body().onboarding.step, 'awaiting_approval')
    for (const action of ['quality_rules.confirmed', 'publisher.go_live_requested']) {
      const [entry] = await logged(publisher.id, action)
      assert.equal(entry.actor, `api_key:${operator.apiKey.id}`, action)
    }
  })
})

test.group('Onboarding / the gates', () => {
  test('a change of the rules voids the confirmation: no going live until the new rules are confirmed', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const own = (await createKey({ publisherId: publisher.id })).secret
    const operator = await operatorKey()
    await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(own)
      .json({ delivery_methods: ['api'] })
    await client.post(confirmPath(publisher.id)).bearerToken(own)
    await client.post(goLivePath(publisher.id)).bearerToken(own)

    ;(
      await client
        .put(`/v1/publishers/${publisher.id}/quality-rules`)
        .bearerToken(operator)
        .json({ email: { action: 'flag' } })
    ).assertStatus(200)
    const shown = await client.get(`/v1/publishers/${publisher.id}`).bearerToken(own)
    assert.containSubset(shown.body().onboarding, {
      step: 'confirm_quality_rules',
      rules_version: 1,
      rules_confirmed_at: null,
    })

    const before = await stateOf(publisher.id)
    const live = await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(operator)
      .json({ name: 'Renamed', status: 'live' })
    live.assertStatus(409)
    assert.equal(live.body().code, 'rules_not_confirmed')
    // Confirming what the publisher read before the change confirms nothing.
    const stale = await client
      .post(confirmPath(publisher.id))
      .bearerToken(own)
      .json({ rules_version: 0 })
    stale.assertStatus(409)
    assert.equal(stale.body().code, 'rules_changed')
    assert.deepEqual(await stateOf(publisher.id), before)

    const confirmed = await client
      .post(confirmPath(publisher.id))
      .bearerToken(own)
      .json({ rules_version: 1 })
    assert.equal(confirmed.body().onboarding.step, 'awaiting_approval', 'the request stands')
    ;(
      await client
        .patch(`/v1/publishers/${publisher.id}`)
        .bearerToken(operator)
        .json({ status: 'live' })
    ).assertStatus(200)
    const stored = await Publisher.findOrFail(publisher.id)
    assert.equal(stored.status, 'live')
    assert.equal(stored.rulesConfirmedVersion, 1)
  })

  test('a paused publisher that was live resumes without a new confirmation; one never live does not', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const veteran = await createPublisher()
    await client.post(confirmPath(veteran.id)).bearerToken(operator)
    const patch = (id: string, body: object) =>
      client.patch(`/v1/publishers/${id}`).bearerToken(operator).json(body)
    ;(await patch(veteran.id, { status: 'live' })).assertStatus(200)
    ;(await patch(veteran.id, { status: 'paused' })).assertStatus(200)
    await client
      .put(`/v1/publishers/${veteran.id}/quality-rules`)
      .bearerToken(operator)
      .json({ phone: { action: 'flag' } })
    const resumed = await patch(veteran.id, { status: 'live' })
    resumed.assertStatus(200)
    assert.containSubset(resumed.body(), { status: 'live', onboarding: { step: 'monitor' } })

    // Set live outside the service (a seed): pausing remembers that it was live.
    const seeded = (await livePublisher()).publisher
    ;(await patch(seeded.id, { status: 'paused' })).assertStatus(200)
    ;(await patch(seeded.id, { status: 'live' })).assertStatus(200)

    const novice = await createPublisher()
    ;(await patch(novice.id, { status: 'paused' })).assertStatus(200)
    const refused = await patch(novice.id, { status: 'live' })
    refused.assertStatus(409)
    assert.equal(refused.body().code, 'rules_not_confirmed')
    assert.equal((await Publisher.findOrFail(novice.id)).status, 'paused')
  })

  test('asking to go live needs a delivery method; a live publisher has nothing to ask', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const own = (await createKey({ publisherId: publisher.id })).secret
    await client.post(confirmPath(publisher.id)).bearerToken(own)
    const before = await stateOf(publisher.id)
    const refused = await client.post(goLivePath(publisher.id)).bearerToken(own)
    refused.assertStatus(409)
    assert.equal(refused.body().code, 'delivery_method_missing')
    assert.deepEqual(await stateOf(publisher.id), before)

    const { publisher: live, key } = await livePublisher()
    const beforeLive = await stateOf(live.id)
    const noop = await client.post(goLivePath(live.id)).bearerToken(key)
    noop.assertStatus(200)
    assert.isNull(noop.body().onboarding.go_live_requested_at)
    assert.deepEqual(await stateOf(live.id), beforeLive)
  })
})

test.group('Onboarding / who may', () => {
  test('another publisher and buyers get 404; read-only and sandbox keys 403; nothing changes', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    publisher.deliveryMethods = ['api']
    await publisher.save()
    const other = (await createKey({ publisherId: (await createPublisher()).id })).secret
    const buyer = (await createKey({ buyerId: (await createBuyer()).id })).secret
    const readOnly = (await createKey({ publisherId: publisher.id, permissions: ['read'] })).secret
    const sandbox = (await createKey({ publisherId: publisher.id, environment: 'sandbox' })).secret
    const before = await stateOf(publisher.id)

    for (const path of [confirmPath(publisher.id), goLivePath(publisher.id)]) {
      for (const secret of [other, buyer]) {
        const response = await client.post(path).bearerToken(secret)
        response.assertStatus(404)
        assert.equal(response.body().code, 'not_found')
      }
      for (const [secret, code] of [
        [readOnly, 'permission_missing'],
        [sandbox, 'environment_not_allowed'],
      ]) {
        const response = await client.post(path).bearerToken(secret)
        response.assertStatus(403)
        assert.equal(response.body().code, code, path)
      }
    }
    assert.deepEqual(await stateOf(publisher.id), before)
  })

  test('a bad rules_version answers 422 and confirms nothing', async ({ client, assert }) => {
    const publisher = await createPublisher()
    const own = (await createKey({ publisherId: publisher.id })).secret
    const before = await stateOf(publisher.id)
    for (const [body, code] of [
      [{ rules_version: '0' }, 'number'],
      [{ rules_version: -1 }, 'range'],
      [{ rules_version: 1.5 }, 'withoutDecimals'],
      [{ version: 0 }, 'unknown_field'],
    ] as const) {
      const response = await client.post(confirmPath(publisher.id)).bearerToken(own).json(body)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].code, code, JSON.stringify(body))
    }
    assert.deepEqual(await stateOf(publisher.id), before)
  })
})
