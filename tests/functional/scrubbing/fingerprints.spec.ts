import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import Publisher from '#models/publisher'
import LeadEraser from '#services/privacy/lead_eraser'
import {
  createBuyer,
  createLabel,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import {
  createRule,
  disableUnscopedRules,
  factsOf,
  routingPublisher,
} from '#tests/functional/routing/routing_support'
import { sell } from '#tests/functional/selling/selling_support'

const printsOf = (leadId: string) =>
  db.from('lead_fingerprints').where('lead_id', leadId).orderBy('kind')

const PLATFORM_DUPLICATES = {
  duplicates: { window_days: 30, keys: ['contact.email'], action: 'reject', scope: 'platform' },
}

test.group('Scrubbing / fingerprints across publishers', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('an accepted lead leaves keyed fingerprints of its e-mail and phone, never the values; a rejected one none', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const body = leadBody(publisher.slug)
    const accepted = await client.post('/v1/leads').bearerToken(key).json(body)
    accepted.assertStatus(201)
    const prints = await printsOf(accepted.body().id)
    assert.deepEqual(
      prints.map((row) => row.kind),
      ['email', 'phone']
    )
    for (const row of prints) {
      assert.match(row.digest, /^[0-9a-f]{64}$/)
      assert.equal(row.publisher_id, publisher.id)
      assert.notInclude(JSON.stringify(row), body.contact.email)
      assert.notInclude(JSON.stringify(row), body.contact.phone.slice(3))
    }
    const rejected = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(publisher.slug, { consent: { given: false } }))
    rejected.assertStatus(422)
    assert.lengthOf(await printsOf(rejected.body().id), 0)
  })

  test('with scope platform a consumer another publisher sent is a duplicate, and the answer names no publisher; with the default scope it is not', async ({
    client,
    assert,
  }) => {
    const first = await livePublisher()
    const strict = await livePublisher(PLATFORM_DUPLICATES)
    const own = await livePublisher({
      ...PLATFORM_DUPLICATES,
      duplicates: { ...PLATFORM_DUPLICATES.duplicates, scope: 'publisher' },
    })
    const email = `shared.${Date.now()}@example.nl`
    ;(
      await client
        .post('/v1/leads')
        .bearerToken(first.key)
        .json(leadBody(first.publisher.slug, { contact: { email } }))
    ).assertStatus(201)

    const copy = await client
      .post('/v1/leads')
      .bearerToken(strict.key)
      .json(leadBody(strict.publisher.slug, { contact: { email: email.toUpperCase() } }))
    copy.assertStatus(422)
    assert.isTrue(copy.body().quality_check.duplicate)
    assert.deepEqual(
      copy.body().reasons.map((reason: { code: string }) => reason.code),
      ['duplicate']
    )
    assert.notInclude(copy.text(), first.publisher.slug)
    assert.notInclude(copy.text(), first.publisher.id)

    const allowed = await client
      .post('/v1/leads')
      .bearerToken(own.key)
      .json(leadBody(own.publisher.slug, { contact: { email } }))
    allowed.assertStatus(201)
    assert.equal(allowed.body().status, 'accepted')

    // Rules in words say so; the document validates the scope.
    const operator = await operatorKey()
    const bad = await client
      .put(`/v1/publishers/${strict.publisher.id}/quality-rules`)
      .bearerToken(operator)
      .json({ duplicates: { ...PLATFORM_DUPLICATES.duplicates, scope: 'galaxy' } })
    bad.assertStatus(422)
    assert.deepEqual(
      (await Publisher.findOrFail(strict.publisher.id)).qualityRules,
      PLATFORM_DUPLICATES as any
    )
  })

  test('a buyer with a duplicate window is never sold the same consumer twice within it; another buyer still may', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const [a, b] = [await routingPublisher(label), await routingPublisher(label)]
    const careful = await createBuyer()
    const operator = await operatorKey()
    const patched = await client
      .patch(`/v1/buyers/${careful.id}`)
      .bearerToken(operator)
      .json({ duplicate_window_days: 30 })
    patched.assertStatus(200)
    assert.equal(patched.body().duplicate_window_days, 30)
    await createRule({ buyerId: careful.id, labelIds: [label.id], priority: 10 })

    const phone = `+3161${String(Date.now()).slice(-7)}`
    const post = async (world: { publisher: { slug: string }; key: string }) => {
      const answer = await client
        .post('/v1/leads')
        .bearerToken(world.key)
        .json(leadBody(world.publisher.slug, { contact: { phone } }))
      answer.assertStatus(201)
      return answer.body().id as string
    }
    const firstLead = await post(a)
    assert.include(await sell(firstLead), { outcome: 'matched', buyerId: careful.id })
    const secondLead = await post(b)
    assert.include(await sell(secondLead), { outcome: 'unsold' })
    assert.equal((await factsOf(secondLead)).unsold_reason, 'buyer_duplicate')

    const other = await createBuyer()
    await createRule({ buyerId: other.id, labelIds: [label.id], priority: 1 })
    const thirdLead = await post(a)
    assert.include(await sell(thirdLead), { outcome: 'matched', buyerId: other.id })
  })

  test('an erased lead leaves no fingerprint behind', async ({ client, assert }) => {
    const { publisher, key } = await livePublisher()
    const lead = await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    lead.assertStatus(201)
    assert.lengthOf(await printsOf(lead.body().id), 2)
    const eraser = await app.container.make(LeadEraser)
    await eraser.erase(publisher, [lead.body().id], 'operator:test')
    assert.lengthOf(await printsOf(lead.body().id), 0)
  })
})
