import { test } from '@japa/runner'
import {
  createBuyer,
  createKey,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { tamperAudit } from '#tests/support/admin_db'
import { entryHash } from '#services/audit/audit_chain_service'

test.group('Audit logs / API', () => {
  test("a lead's trail is served with hashes that chain and recompute", async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const lead = (
      await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    ).body()

    const response = await client
      .get('/v1/audit-logs')
      .qs({ lead_id: lead.id, format: 'json' })
      .bearerToken(key)
    response.assertStatus(200)
    const { lead_id: leadId, events } = response.body()
    assert.equal(leadId, lead.id)
    assert.deepEqual(
      events.map((e: any) => e.event),
      ['lead.received', 'consent.captured', 'lead.validated', 'lead.accepted']
    )
    assert.deepEqual(
      events.map((e: any) => e.lead_seq),
      [1, 2, 3, 4]
    )
    assert.equal(events[0].prev_hash, '0'.repeat(64))
    assert.isNull(events[0].status_from)
    for (const [index, event] of events.entries()) {
      assert.match(event.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.equal(entryHash({ ...event, lead_id: lead.id }), event.hash)
      if (index > 0) assert.equal(event.prev_hash, events[index - 1].hash)
    }
    assert.match(events[0].actor, /^api_key:/)
  })

  test('verify reports a valid chain, then names the first entry altered behind the application’s back', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const lead = (
      await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    ).body()

    const clean = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: lead.id })
      .bearerToken(key)
    clean.assertStatus(200)
    assert.deepEqual(clean.body(), { lead_id: lead.id, valid: true, entries: 4, broken_at: null })

    await tamperAudit(
      "UPDATE audit.entries SET actor = 'operator:someone' WHERE lead_id = $1 AND lead_seq = 3",
      [lead.id]
    )
    const broken = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: lead.id })
      .bearerToken(await operatorKey())
    broken.assertStatus(200)
    assert.isFalse(broken.body().valid)
    assert.equal(broken.body().broken_at.lead_seq, 3)
  })

  test("another publisher's or a buyer's request for the trail answers 404; bad ids 404 or 422, never 500", async ({
    client,
    assert,
  }) => {
    const mine = await livePublisher()
    const theirs = await livePublisher()
    const lead = (
      await client.post('/v1/leads').bearerToken(mine.key).json(leadBody(mine.publisher.slug))
    ).body()
    const buyer = await createBuyer()
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret

    for (const path of ['/v1/audit-logs', '/v1/audit-logs/verify']) {
      ;(
        await client.get(path).qs({ lead_id: lead.id, format: 'json' }).bearerToken(theirs.key)
      ).assertStatus(404)
      ;(
        await client.get(path).qs({ lead_id: lead.id, format: 'json' }).bearerToken(buyerKey)
      ).assertStatus(404)
      const malformed = await client
        .get(path)
        .qs({ lead_id: "1' OR '1'='1", format: 'json' })
        .bearerToken(mine.key)
      malformed.assertStatus(422)
      assert.include(malformed.header('content-type'), 'application/problem+json')
    }
  })
})
