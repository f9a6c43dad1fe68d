import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { PREPARED_PER_CONNECTION } from '#services/sql/prepared'
import TenancyService from '#services/platform/tenancy_service'
import AuditChainService from '#services/audit/audit_chain_service'
import {
  createBuyer,
  createKey,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'

async function storedLead(publisher: { schemaName: string }, id: string) {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run(publisher, (trx) => trx.from('leads').where('id', id).first())
}

test.group('Leads / intake', () => {
  test('an accepted lead stores the lead, consent evidence, audit chain, facts and events in one go', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const body = leadBody(publisher.slug, {
      contact: { phone: '06 12345678', email: ' Jan.Jansen@Example.NL ' },
    })
    const response = await client.post('/v1/leads').bearerToken(key).json(body)

    response.assertStatus(201)
    const answer = response.body()
    assert.equal(answer.status, 'accepted')
    assert.equal(answer.publisher, publisher.slug)
    assert.deepEqual(answer.quality_check, {
      consent: 'valid',
      target_audience: 'within',
      duplicate: false,
    })
    assert.deepEqual(answer.reasons, [])

    const lead = await storedLead(publisher, answer.id)
    assert.equal(lead.status, 'accepted')
    assert.equal(lead.contact.phone, '+31612345678')
    assert.equal(lead.email_key, 'jan.jansen@example.nl')

    const entries = await db.from('audit.entries').where('lead_id', answer.id).orderBy('lead_seq')
    assert.deepEqual(
      entries.map((e) => e.event),
      ['lead.received', 'consent.captured', 'lead.validated', 'lead.accepted']
    )
    assert.deepEqual(
      entries.map((e) => e.status_to),
      ['received', 'consented', 'validated', 'accepted']
    )
    assert.isTrue(entries.every((e) => !JSON.stringify(e).includes('example.nl')))

    const evidence = await db
      .from('audit.consent_evidence')
      .where('lead_id', answer.id)
      .firstOrFail()
    assert.equal(evidence.method, 'api')
    assert.lengthOf(evidence.ip_commitment, 64)

    const fact = await db.from('lead_facts').where('lead_id', answer.id).firstOrFail()
    assert.equal(fact.status, 'accepted')
    assert.equal(fact.channel, 'api')

    const events = await db.from('outbox_events').where('lead_id', answer.id).orderBy('type')
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.recorded', 'lead.received']
    )
    const received = events.find((e) => e.type === 'lead.received')
    assert.equal(received.payload.event_id, received.id)
    assert.equal(received.payload.data.lead_id, answer.id)
    assert.deepEqual(received.payload.data.provenance.source, 'facebook')
  })

  test('a lead failing a reject rule is stored as rejected with labelled reasons and answered 422', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const response = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(publisher.slug, { contact: { phone: '12' } }))
    response.assertStatus(422)
    const answer = response.body()
    assert.equal(answer.status, 'rejected')
    assert.deepEqual(
      answer.reasons.map((r: any) => r.code),
      ['invalid_phone']
    )
    assert.isString(answer.reasons[0].message)

    const lead = await storedLead(publisher, answer.id)
    assert.equal(lead.status, 'rejected')
    assert.deepEqual(
      lead.reasons.map((r: any) => r.code),
      ['invalid_phone']
    )
    assert.lengthOf(await db.from('outbox_events').where('lead_id', answer.id), 0)
    const last = await db
      .from('audit.entries')
      .where('lead_id', answer.id)
      .orderBy('lead_seq', 'desc')
      .first()
    assert.equal(last.event, 'lead.rejected')
  })

  test('a flag rule stores the lead as flagged (201) and holds it for review', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher({ phone: { action: 'flag' } })
    const response = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(publisher.slug, { contact: { phone: '12' } }))
    response.assertStatus(201)
    assert.equal(response.body().status, 'flagged')
    assert.equal((await storedLead(publisher, response.body().id)).status, 'flagged')
  })

  test('a lead without valid consent is blocked whatever the rules say', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher({ consent: { required: true, action: 'flag' } })
    for (const consent of [
      { given: false },
      { text: '' },
      { ip: 'not-an-ip' },
      { timestamp: new Date(Date.now() + 3_600_000).toISOString() },
    ]) {
      const response = await client
        .post('/v1/leads')
        .bearerToken(key)
        .json(leadBody(publisher.slug, { consent }))
      response.assertStatus(422)
      assert.equal(response.body().status, 'rejected')
      assert.oneOf(response.body().quality_check.consent, ['missing', 'invalid'])
    }
    const missing = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json({ ...leadBody(publisher.slug), consent: undefined })
    missing.assertStatus(422)
    assert.include(
      missing.body().reasons.map((r: any) => r.code),
      'missing_consent'
    )
  })

  test('duplicates inside the window are caught; outside it they are not', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher({
      duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action: 'reject' },
    })
    const body = leadBody(publisher.slug)
    ;(await client.post('/v1/leads').bearerToken(key).json(body)).assertStatus(201)

    const again = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json({ ...body, contact: { ...body.contact, email: 'other@example.nl' } })
    again.assertStatus(422)
    assert.isTrue(again.body().quality_check.duplicate)
    assert.include(
      again.body().reasons.map((r: any) => r.code),
      'duplicate'
    )

    const tenancy = await app.container.make(TenancyService)
    await tenancy.run(publisher, (trx) =>
      trx.from('leads').update({ created_at: new Date(Date.now() - 31 * 86_400_000) })
    )
    const later = await client.post('/v1/leads').bearerToken(key).json(body)
    later.assertStatus(201)
    assert.isFalse(later.body().quality_check.duplicate)
  })

  test('concurrent copies of one lead: exactly one is accepted, the rest are duplicates', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher({
      duplicates: { window_days: 1, keys: ['contact.email'], action: 'reject' },
    })
    const body = leadBody(publisher.slug)
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => client.post('/v1/leads').bearerToken(key).json(body))
    )
    assert.deepEqual(answers.map((a) => a.status()).sort(), [201, 422, 422, 422, 422, 422])
  })

  test('leads arriving together are written together, each whole; a copy in the same group is a duplicate', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher({
      duplicates: { window_days: 1, keys: ['contact.email'], action: 'reject' },
    })
    const bodies = Array.from({ length: 10 }, (_, i) =>
      leadBody(publisher.slug, { contact: { email: `group.${i}@example.nl` } })
    )
    const answers = await Promise.all(
      [...bodies, bodies[9], bodies[9]].map((body) =>
        client.post('/v1/leads').bearerToken(key).json(body)
      )
    )
    assert.deepEqual(answers.map((a) => a.status()).sort(), [...Array(10).fill(201), 422, 422])
    const ids = answers.map((a) => a.body().id as string)

    const facts = await db.from('lead_facts').whereIn('lead_id', ids)
    assert.lengthOf(facts, 12)
    // Leads of one transaction share its clock: fewer distinct moments than leads means they were grouped.
    assert.isBelow(new Set(facts.map((f) => new Date(f.created_at).toISOString())).size, 12)

    const audit = await app.container.make(AuditChainService)
    for (const answer of answers) {
      const verification = await audit.verify(answer.body().id)
      assert.isTrue(verification.valid)
      assert.equal(verification.entries, 4)
    }
    assert.lengthOf(await db.from('audit.consent_evidence').whereIn('lead_id', ids), 12)
    const events = await db.from('outbox_events').whereIn('lead_id', ids)
    assert.lengthOf(events, 20)
    const accepted = answers.filter((a) => a.status() === 201).map((a) => a.body().id)
    assert.sameMembers([...new Set(events.map((e) => e.lead_id))], accepted)
  })

  test('publisher mismatch, a publisher not yet live and buyer keys are refused with 403, storing nothing', async ({
    client,
    assert,
  }) => {
    const mine = await livePublisher()
    const theirs = await livePublisher()
    const mismatch = await client
      .post('/v1/leads')
      .bearerToken(mine.key)
      .json(leadBody(theirs.publisher.slug))
    mismatch.assertStatus(403)
    assert.equal(mismatch.body().code, 'publisher_mismatch')

    mine.publisher.status = 'paused'
    await mine.publisher.save()
    const paused = await client
      .post('/v1/leads')
      .bearerToken(mine.key)
      .json(leadBody(mine.publisher.slug))
    paused.assertStatus(403)
    assert.equal(paused.body().code, 'publisher_not_live')
    const sandbox = await createKey({ publisherId: mine.publisher.id, environment: 'sandbox' })
    ;(
      await client.post('/v1/leads').bearerToken(sandbox.secret).json(leadBody(mine.publisher.slug))
    ).assertStatus(201)

    const buyer = await createBuyer()
    const buyerKey = await createKey({ buyerId: buyer.id })
    ;(
      await client
        .post('/v1/leads')
        .bearerToken(buyerKey.secret)
        .json(leadBody(theirs.publisher.slug))
    ).assertStatus(403)
    const readOnly = await createKey({ publisherId: theirs.publisher.id, permissions: ['read'] })
    ;(
      await client
        .post('/v1/leads')
        .bearerToken(readOnly.secret)
        .json(leadBody(theirs.publisher.slug))
    ).assertStatus(403)

    const facts = await db
      .from('lead_facts')
      .whereIn('publisher_id', [mine.publisher.id, theirs.publisher.id])
    assert.lengthOf(facts, 1)
    assert.equal(facts[0].environment, 'sandbox')
  })

  test('bad shapes answer 422 problem+json and store nothing', async ({ client, assert }) => {
    const { publisher, key } = await livePublisher()
    const bodies = [
      { ...leadBody(publisher.slug), contact: 'nope' },
      { ...leadBody(publisher.slug), consent: { given: 'yes' } },
      { ...leadBody(publisher.slug), extra: 1 },
      { ...leadBody(publisher.slug), attributes: { Age: 3 } },
      { ...leadBody(publisher.slug), attributes: { nested: { a: 1 } } },
      { ...leadBody(publisher.slug), provenance: { landing_page: 'javascript:alert(1)' } },
      { ...leadBody(publisher.slug), consent: { timestamp: 'yesterday' } },
    ]
    for (const body of bodies) {
      const response = await client.post('/v1/leads').bearerToken(key).json(body)
      response.assertStatus(422)
      assert.include(response.header('content-type'), 'application/problem+json')
      assert.isArray(response.body().errors)
    }
    assert.lengthOf(await db.from('lead_facts').where('publisher_id', publisher.id), 0)
  })
})

test.group('Leads / idempotency', () => {
  test('the same Idempotency-Key returns the first answer; another body answers 409', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const body = leadBody(publisher.slug)
    const first = await client
      .post('/v1/leads')
      .bearerToken(key)
      .header('idempotency-key', 'order-1')
      .json(body)
    first.assertStatus(201)
    const second = await client
      .post('/v1/leads')
      .bearerToken(key)
      .header('idempotency-key', 'order-1')
      .json(body)
    second.assertStatus(201)
    assert.deepEqual(second.body(), first.body())
    assert.equal(second.header('idempotent-replayed'), 'true')

    const other = await client
      .post('/v1/leads')
      .bearerToken(key)
      .header('idempotency-key', 'order-1')
      .json(leadBody(publisher.slug))
    other.assertStatus(409)
    assert.equal(other.body().code, 'idempotency_key_reused')
    assert.lengthOf(await db.from('lead_facts').where('publisher_id', publisher.id), 1)
  })

  test('concurrent duplicates of one key create exactly one lead', async ({ client, assert }) => {
    const { publisher, key } = await livePublisher()
    const body = leadBody(publisher.slug)
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post('/v1/leads').bearerToken(key).header('idempotency-key', 'burst').json(body)
      )
    )
    assert.isTrue(answers.every((a) => a.status() === 201))
    assert.lengthOf(new Set(answers.map((a) => a.body().id)), 1)
    assert.lengthOf(await db.from('lead_facts').where('publisher_id', publisher.id), 1)
  })
})

test.group('Leads / the intake write', () => {
  test('one prepared statement per publisher, whatever the group size; rows as JSON parameters', async ({
    client,
    assert,
  }) => {
    const first = await livePublisher()
    const second = await livePublisher()
    const writes: { sql: string; bindings: unknown[]; name?: string }[] = []
    const knex = db.connection().getWriteClient()
    const listen = (query: { sql: string; bindings?: unknown[]; options?: { name?: string } }) => {
      if (query.sql.startsWith('WITH i0 AS (INSERT INTO leads ')) {
        writes.push({ sql: query.sql, bindings: query.bindings ?? [], name: query.options?.name })
      }
    }
    knex.on('query', listen)
    // The suite's earlier publishers may have filled the pool's connections (a connection keeps
    // 16 statements, then runs a new one unnamed): room for these two, whatever ran before.
    const { limit } = PREPARED_PER_CONNECTION
    PREPARED_PER_CONNECTION.limit = Number.MAX_SAFE_INTEGER
    try {
      const send = (publisher: typeof first, count: number) =>
        Promise.all(
          Array.from({ length: count }, (_, index) =>
            client
              .post('/v1/leads')
              .bearerToken(publisher.key)
              .json(
                leadBody(publisher.publisher.slug, { contact: { email: `w${index}@example.nl` } })
              )
          )
        )
      // A lone lead, then a burst the group commit writes in fewer, larger groups.
      for (const answer of [...(await send(first, 1)), ...(await send(first, 6))])
        answer.assertStatus(201)
      for (const answer of await send(second, 1)) answer.assertStatus(201)
    } finally {
      knex.removeListener('query', listen)
      PREPARED_PER_CONNECTION.limit = limit
    }
    const ofFirst = writes.slice(0, -1)
    assert.isAbove(ofFirst.length, 1)
    assert.isBelow(ofFirst.length, 7, 'the burst went in groups')
    // Same text for every group size: one name; rows travel as one parameter per table.
    assert.lengthOf(new Set(ofFirst.map((write) => write.sql)), 1)
    assert.lengthOf(new Set(ofFirst.map((write) => write.name)), 1)
    assert.match(ofFirst[0].name!, /^lg_/)
    // A dozen or so, whatever the group size (leads, facts, fingerprints, trails, evidence…).
    assert.isTrue(
      ofFirst.every((write) => write.bindings.length < 14),
      `bindings: ${ofFirst.map((write) => write.bindings.length)}`
    )
    // Another publisher's write has the same text but its own name: its own search_path, its own plan.
    const other = writes.at(-1)!
    assert.equal(other.sql, ofFirst[0].sql)
    assert.notEqual(other.name, ofFirst[0].name)
    assert.lengthOf(await db.from('lead_facts').where('publisher_id', first.publisher.id), 7)
    assert.lengthOf(await db.from('lead_facts').where('publisher_id', second.publisher.id), 1)
  })
})

test.group('Leads / reading', () => {
  test('a publisher reads its own leads; others get 404; the operator reads all', async ({
    client,
    assert,
  }) => {
    const mine = await livePublisher()
    const theirs = await livePublisher()
    const created = (
      await client.post('/v1/leads').bearerToken(mine.key).json(leadBody(mine.publisher.slug))
    ).body()

    const own = await client.get(`/v1/leads/${created.id}`).bearerToken(mine.key)
    own.assertStatus(200)
    assert.equal(own.body().contact.name, 'Jan Jansen')
    assert.equal(own.body().consent.ip, '203.0.113.9')
    assert.equal(own.body().provenance.source, 'facebook')
    assert.property(own.body().provenance, 'label')

    ;(await client.get(`/v1/leads/${created.id}`).bearerToken(theirs.key)).assertStatus(404)
    ;(await client.get(`/v1/requests/${created.id}`).bearerToken(theirs.key)).assertStatus(404)
    const buyer = await createBuyer()
    ;(
      await client
        .get(`/v1/leads/${created.id}`)
        .bearerToken((await createKey({ buyerId: buyer.id })).secret)
    ).assertStatus(404)
    ;(await client.get(`/v1/leads/${created.id}`).bearerToken(await operatorKey())).assertStatus(
      200
    )

    const lookup = await client.get(`/v1/requests/${created.id}`).bearerToken(mine.key)
    assert.deepEqual(lookup.body(), { id: created.id, status: 'accepted' })
  })

  test('lists filter by status and page with a cursor; sandbox leads stay out of live lists', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const ids: string[] = []
    for (let i = 0; i < 3; i++)
      ids.push(
        (await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))).body().id
      )
    const rejected = (
      await client
        .post('/v1/leads')
        .bearerToken(key)
        .json(leadBody(publisher.slug, { contact: { phone: '1' } }))
    ).body().id
    const sandbox = await createKey({ publisherId: publisher.id, environment: 'sandbox' })
    await client.post('/v1/leads').bearerToken(sandbox.secret).json(leadBody(publisher.slug))

    const page1 = await client.get('/v1/leads').qs({ limit: 2 }).bearerToken(key)
    page1.assertStatus(200)
    assert.lengthOf(page1.body().data, 2)
    const page2 = await client
      .get('/v1/leads')
      .qs({ limit: 2, cursor: page1.body().next_cursor })
      .bearerToken(key)
    const all = [...page1.body().data, ...page2.body().data].map((lead: any) => lead.id)
    assert.sameMembers(all, [...ids, rejected])
    assert.isNull(page2.body().next_cursor)

    const onlyRejected = await client.get('/v1/leads').qs({ status: 'rejected' }).bearerToken(key)
    assert.deepEqual(
      onlyRejected.body().data.map((lead: any) => lead.id),
      [rejected]
    )

    const operatorView = await client
      .get('/v1/leads')
      .qs({ publisher: publisher.slug })
      .bearerToken(await operatorKey())
    assert.lengthOf(operatorView.body().data, 4)
    const sandboxView = await client.get('/v1/leads').bearerToken(sandbox.secret)
    assert.lengthOf(sandboxView.body().data, 1)
  })

  test('/v1/requests takes the publisher from the key and answers like /v1/leads', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const { publisher: omitted, ...body } = leadBody(publisher.slug)
    const response = await client.post('/v1/requests').bearerToken(key).json(body)
    response.assertStatus(201)
    assert.equal(response.body().publisher, publisher.slug)
    const fact = await db.from('lead_facts').where('lead_id', response.body().id).firstOrFail()
    assert.equal(fact.channel, 'request')
  })
})
