import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type Publisher from '#models/publisher'
import TenancyService from '#services/platform/tenancy_service'
import AuditChainService from '#services/audit/audit_chain_service'
import { routingQueue } from '#services/routing/routing_queue'
import {
  createBuyer,
  createKey,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'
import { createRule, route } from '#tests/functional/routing/routing_support'

/** An invalid phone only flags the lead under these rules: it is stored and held for review. */
const FLAG_PHONE = { phone: { action: 'flag' } }

async function storedLead(publisher: Publisher, id: string) {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run(publisher, (trx) => trx.from('leads').where('id', id).firstOrFail())
}

function factsOf(id: string) {
  return db.from('lead_facts').where('lead_id', id).firstOrFail()
}

async function trailOf(id: string) {
  const audit = await app.container.make(AuditChainService)
  return audit.entriesFor(null, id)
}

function reviewedEvents(id: string) {
  return db.from('outbox_events').where('lead_id', id).where('type', 'lead.reviewed')
}

/**
 * A key's first request stamps its last use (a write to its row); each key
 * makes one before a snapshot, so the snapshot measures only the refusals.
 */
async function used(client: any, ...secrets: string[]) {
  for (const secret of secrets) {
    await client.get('/v1/leads').qs({ limit: 1 }).bearerToken(secret)
  }
}

/** A live publisher whose invalid phones are flagged, its key, and one flagged lead. */
async function flaggedWorld(client: any, environment: 'live' | 'sandbox' = 'live') {
  const world = await livePublisher(FLAG_PHONE)
  const key =
    environment === 'live'
      ? world.key
      : (await createKey({ publisherId: world.publisher.id, environment })).secret
  const leadId = await flaggedLead(client, world.publisher, key)
  return { ...world, key, leadId }
}

async function flaggedLead(client: any, publisher: Publisher, key: string) {
  const response = await client
    .post('/v1/leads')
    .bearerToken(key)
    .json(leadBody(publisher.slug, { contact: { phone: '12345' } }))
  response.assertStatus(201)
  if (response.body().status !== 'flagged') throw new Error(`not flagged: ${response.text()}`)
  return response.body().id as string
}

test.group('Lead review / approve', () => {
  test('the operator approves: accepted, audited with the reviewer, event, facts, queued and routed', async ({
    client,
    assert,
  }) => {
    const { publisher, key, leadId } = await flaggedWorld(client)
    const buyer = await createBuyer()
    const rule = await createRule({ buyerId: buyer.id, publisherIds: [publisher.id] })
    const operator = await createKey()

    const response = await client
      .post(`/v1/leads/${leadId}/review`)
      .bearerToken(operator.secret)
      .json({ decision: 'approve', reason: 'Called the number: it works.' })
    response.assertStatus(200)
    const reviewer = `api_key:${operator.apiKey.id}`
    assert.containSubset(response.body(), {
      id: leadId,
      status: 'accepted',
      review: { decision: 'approve', reason: 'Called the number: it works.', reviewer },
    })
    assert.equal(response.body().reasons[0].code, 'invalid_phone', 'the flag stays on record')

    const stored = await storedLead(publisher, leadId)
    assert.equal(stored.status, 'accepted')
    assert.equal(stored.review.reviewer, reviewer)
    assert.equal((await factsOf(leadId)).status, 'accepted')

    const trail = await trailOf(leadId)
    assert.containSubset(trail.at(-1), {
      event: 'lead.accepted',
      actor: reviewer,
      status_from: 'flagged',
      status_to: 'accepted',
      prev_hash: trail.at(-2)!.hash,
    })
    const verified = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: leadId })
      .bearerToken(operator.secret)
    assert.isTrue(verified.body().valid)

    const [event] = await reviewedEvents(leadId)
    assert.equal(event.publisher_id, publisher.id)
    assert.equal(event.environment, 'live')
    assert.containSubset(event.payload.data, {
      lead_id: leadId,
      publisher: publisher.slug,
      status: 'accepted',
      reason: 'Called the number: it works.',
    })

    // Queued the way intake queues an accepted lead (job id = lead id), and routed like one.
    assert.isOk(await routingQueue().getJob(leadId))
    const outcome = await route(leadId)
    assert.deepEqual(outcome, {
      outcome: 'matched',
      leadId,
      ruleId: rule.id,
      buyerId: buyer.id,
    })
    const matched = await client.get(`/v1/leads/${leadId}`).bearerToken(key)
    assert.equal(matched.body().status, 'matched')
    // The publisher reads the decision and the reason, never which operator user decided.
    assert.deepEqual(Object.keys(matched.body().review).sort(), [
      'decision',
      'reason',
      'reviewed_at',
    ])
  })

  test('a flagged sandbox lead, approved, is queued for routing like a live one', async ({
    client,
    assert,
  }) => {
    const { publisher, leadId } = await flaggedWorld(client, 'sandbox')
    const operator = await createKey({ environment: 'sandbox' })
    const response = await client
      .post(`/v1/leads/${leadId}/review`)
      .bearerToken(operator.secret)
      .json({ decision: 'approve' })
    response.assertStatus(200)
    assert.equal(response.body().status, 'accepted')
    assert.isNull(response.body().review.reason)
    assert.equal((await storedLead(publisher, leadId)).status, 'accepted')
    assert.equal((await reviewedEvents(leadId))[0].environment, 'sandbox')
    // It meets the sandbox's routing rules only (docs/sandbox.md).
    assert.ok(await routingQueue().getJob(leadId))
  })
})

test.group('Lead review / reject', () => {
  test("a rejection stores the reviewer's reason with the rules' reasons, and nothing routes it", async ({
    client,
    assert,
  }) => {
    const { publisher, key, leadId } = await flaggedWorld(client)
    const operator = await createKey()
    const reason = 'The number belongs to a business, not the applicant.'
    const endpoint = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: 'http://127.0.0.1:9/hooks', events: ['lead.reviewed'] })
    endpoint.assertStatus(201)

    const response = await client
      .post(`/v1/leads/${leadId}/review`)
      .bearerToken(operator.secret)
      .json({ decision: 'reject', reason: `  ${reason}  ` })
    response.assertStatus(200)
    assert.equal(response.body().status, 'rejected')
    assert.deepEqual(
      response.body().reasons.map((item: any) => item.code),
      ['invalid_phone', 'review_rejected']
    )
    assert.deepEqual(response.body().reasons[1], {
      code: 'review_rejected',
      action: 'reject',
      message: reason,
    })

    const stored = await storedLead(publisher, leadId)
    assert.equal(stored.status, 'rejected')
    assert.deepEqual(stored.reasons.at(-1).message, reason)
    const facts = await factsOf(leadId)
    assert.equal(facts.status, 'rejected')
    assert.deepEqual(facts.reason_codes, ['invalid_phone', 'review_rejected'])

    const trail = await trailOf(leadId)
    assert.containSubset(trail.at(-1), {
      event: 'lead.rejected',
      actor: `api_key:${operator.apiKey.id}`,
      status_from: 'flagged',
      status_to: 'rejected',
    })
    // The audit trail holds no free text: the reason is nowhere in it.
    assert.notInclude(JSON.stringify(trail), 'business')

    const events = await reviewedEvents(leadId)
    assert.lengthOf(events, 1)
    assert.containSubset(events[0].payload.data, { status: 'rejected', reason })
    // The publisher's endpoint that subscribed to it gets a delivery, written with the event.
    const deliveries = await db.from('webhook_deliveries').where('event_id', events[0].id)
    assert.deepEqual(
      deliveries.map((delivery) => delivery.endpoint_id),
      [endpoint.body().id]
    )
    assert.notOk(await routingQueue().getJob(leadId))
    assert.deepEqual(await route(leadId), {
      outcome: 'skipped',
      leadId,
      reason: 'not_accepted',
    })

    const own = await client.get(`/v1/leads/${leadId}`).bearerToken(key)
    assert.equal(own.body().status, 'rejected')
    assert.equal(own.body().review.reason, reason)
  })
})

test.group('Lead review / refusals change nothing', () => {
  test('only a flagged lead is reviewed: a second review and an accepted lead answer 409', async ({
    client,
    assert,
  }) => {
    const { publisher, key, leadId } = await flaggedWorld(client)
    const operator = await operatorKey()
    ;(
      await client
        .post(`/v1/leads/${leadId}/review`)
        .bearerToken(operator)
        .json({ decision: 'reject', reason: 'Not reachable.' })
    ).assertStatus(200)
    const accepted = await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    assert.equal(accepted.body().status, 'accepted')

    const before = await snapshotDatabase()
    const rowsBefore = [
      await storedLead(publisher, leadId),
      await storedLead(publisher, accepted.body().id),
    ]
    for (const id of [leadId, accepted.body().id]) {
      const again = await client
        .post(`/v1/leads/${id}/review`)
        .bearerToken(operator)
        .json({ decision: 'approve' })
      again.assertStatus(409)
      assert.equal(again.body().code, 'lead_not_flagged')
      assert.include(again.header('content-type'), 'application/problem+json')
    }
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
    assert.deepEqual(
      [await storedLead(publisher, leadId), await storedLead(publisher, accepted.body().id)],
      rowsBefore
    )
  })

  test('a publisher gets 403 on its own lead and 404 on another; buyers and unknown ids 404', async ({
    client,
    assert,
  }) => {
    const { publisher, key, leadId } = await flaggedWorld(client)
    const other = await livePublisher()
    const buyerKey = (await createKey({ buyerId: (await createBuyer()).id })).secret
    const readOnly = (await createKey({ permissions: ['read'] })).secret
    const operator = await operatorKey()
    await used(client, key, other.key, buyerKey, readOnly, operator)
    const before = await snapshotDatabase()
    const body = { decision: 'approve' }

    const own = await client.post(`/v1/leads/${leadId}/review`).bearerToken(key).json(body)
    own.assertStatus(403)
    assert.equal(own.body().code, 'operator_only')
    const lacking = await client.post(`/v1/leads/${leadId}/review`).bearerToken(readOnly).json(body)
    lacking.assertStatus(403)
    assert.equal(lacking.body().code, 'permission_missing')
    for (const secret of [other.key, buyerKey]) {
      const hidden = await client.post(`/v1/leads/${leadId}/review`).bearerToken(secret).json(body)
      hidden.assertStatus(404)
      assert.equal(hidden.body().code, 'not_found')
    }
    const unknown = await client
      .post('/v1/leads/0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7c/review')
      .bearerToken(operator)
      .json(body)
    unknown.assertStatus(404)

    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
    assert.equal((await storedLead(publisher, leadId)).status, 'flagged')
  })

  test('a sandbox operator key cannot reach a live lead', async ({ client, assert }) => {
    const live = await flaggedWorld(client)
    const sandboxKey = (await createKey({ environment: 'sandbox' })).secret
    const response = await client
      .post(`/v1/leads/${live.leadId}/review`)
      .bearerToken(sandboxKey)
      .json({ decision: 'approve' })
    response.assertStatus(404)
    assert.equal((await storedLead(live.publisher, live.leadId)).status, 'flagged')
  })

  test('bad decisions and reasons answer 422 per field', async ({ client, assert }) => {
    const { publisher, leadId } = await flaggedWorld(client)
    const operator = await operatorKey()
    await used(client, operator)
    const before = await snapshotDatabase()
    for (const [body, field, code] of [
      [{}, 'decision', 'required'],
      [{ decision: 'maybe' }, 'decision', 'enum'],
      [{ decision: 'reject' }, 'reason', 'required'],
      [{ decision: 'reject', reason: '   ' }, 'reason', 'minLength'],
      [{ decision: 'reject', reason: 'x'.repeat(501) }, 'reason', 'maxLength'],
      [{ decision: 'approve', reason: 42 }, 'reason', 'string'],
      [{ decision: 'approve', note: 'hi' }, 'note', 'unknown_field'],
    ] as const) {
      const response = await client
        .post(`/v1/leads/${leadId}/review`)
        .bearerToken(operator)
        .json(body)
      response.assertStatus(422)
      assert.deepInclude(
        response.body().errors.map((error: any) => [error.field, error.code]),
        [field, code],
        JSON.stringify(body)
      )
    }
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
    assert.equal((await storedLead(publisher, leadId)).status, 'flagged')
  })
})

test.group('Lead review / the queue of flagged leads', () => {
  test('GET /v1/leads?status=flagged lists the leads held for review, and drops them once decided', async ({
    client,
    assert,
  }) => {
    const { publisher, key, leadId } = await flaggedWorld(client)
    const second = await flaggedLead(client, publisher, key)
    await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    const operator = await operatorKey()

    const listed = await client
      .get('/v1/leads')
      .qs({ status: 'flagged', publisher: publisher.slug })
      .bearerToken(operator)
    listed.assertStatus(200)
    assert.deepEqual(
      listed.body().data.map((lead: any) => lead.id),
      [second, leadId]
    )
    const own = await client.get('/v1/leads').qs({ status: 'flagged' }).bearerToken(key)
    assert.deepEqual(
      own.body().data.map((lead: any) => lead.id),
      [second, leadId]
    )

    await client
      .post(`/v1/leads/${leadId}/review`)
      .bearerToken(operator)
      .json({ decision: 'approve' })
    const after = await client
      .get('/v1/leads')
      .qs({ status: 'flagged', publisher: publisher.slug })
      .bearerToken(operator)
    assert.deepEqual(
      after.body().data.map((lead: any) => lead.id),
      [second]
    )
  })
})
