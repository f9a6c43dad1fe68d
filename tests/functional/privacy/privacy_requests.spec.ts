import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { uuidv7 } from 'uuidv7'
import WebhookEndpoint from '#models/webhook_endpoint'
import AuditSealerService from '#services/audit/audit_sealer_service'
import { CheckpointSigner } from '#services/audit/checkpoint_signing'
import { textDigest } from '#services/audit/consent_evidence_service'
import TenancyService from '#services/platform/tenancy_service'
import { createBuyer, createKey, operatorKey } from '#tests/support/fixtures'
import { ledgerOf } from '#tests/support/money'
import {
  acceptedLead,
  createRule,
  factsOf,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'
import {
  fileRequest,
  findEverywhere,
  findInRedis,
  subject,
  verifyBundle,
} from '#tests/functional/privacy/privacy_support'

const sealer = new AuditSealerService()
const signer = CheckpointSigner.configured()

/**
 * A person's lead sold to a buyer, with the person's data copied everywhere it can go: the
 * lead, the upload that carried it again, the buyer's dispute, the match.found payload and the
 * answer the buyer's endpoint echoed, an access-log entry; and a second publisher's lead of
 * the same person.
 */
async function personEverywhere(client: any) {
  const person = subject()
  const contact = { email: person.email, phone: person.phone }
  const consent = { ip: person.ip }
  const world = await routingPublisher()
  const other = await routingPublisher()
  const buyer = await createBuyer()
  const operator = await operatorKey()
  const endpoint = await client
    .post('/v1/webhook-endpoints')
    .bearerToken(operator)
    .json({ url: 'http://127.0.0.1:9/hooks', events: ['match.found'], buyer_id: buyer.id })
  endpoint.assertStatus(201)
  await createRule({ buyerId: buyer.id, publisherIds: [world.publisher.id] })
  const leadId = await acceptedLead(client, world, { contact, consent })
  const otherLeadId = await acceptedLead(client, other, { contact, consent })
  const routed = await route(leadId)
  if (routed.outcome !== 'matched') throw new Error(`not sold: ${JSON.stringify(routed)}`)

  const { secret: buyerKey } = await createKey({ buyerId: buyer.id })
  const dispute = await client
    .post(`/v1/leads/${leadId}/disputes`)
    .bearerToken(buyerKey)
    .json({ reason: 'invalid_contact', details: `Nobody answers at ${person.phone}.` })
  dispute.assertStatus(201)

  world.publisher.merge({ deliveryMethods: ['api', 'upload'] })
  await world.publisher.save()
  const upload = await client
    .post('/v1/uploads')
    .bearerToken(world.key)
    .file('file', Buffer.from(`email,phone\r\n${person.email},${person.phone}\r\n`), {
      filename: 'again.csv',
    })
  upload.assertStatus(202)

  const delivery = await db
    .from('webhook_deliveries as d')
    .join('outbox_events as e', 'e.id', 'd.event_id')
    .where('e.lead_id', leadId)
    .where('d.event_type', 'match.found')
    .select('d.id', 'd.endpoint_id')
    .firstOrFail()
  await db.table('webhook_attempts').insert({
    id: uuidv7(),
    delivery_id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    attempt: 1,
    trigger: 'auto',
    started_at: new Date(),
    succeeded: true,
    status_code: 200,
    latency_ms: 12,
    response_excerpt: `{"received": "${person.email}"}`,
  })
  await db.table('access_log').insert({
    actor: 'operator:someone',
    action: 'lead.looked_up',
    subject_type: 'lead',
    subject_id: leadId,
    details: JSON.stringify({ searched: person.email }),
  })
  return {
    person,
    world,
    other,
    buyer,
    operator,
    leadId,
    otherLeadId,
    endpoint: endpoint.body().id,
  }
}

test.group('Privacy / data-subject requests', (group) => {
  // A request searches every publisher's schema, and the whole suite leaves hundreds: past the
  // default 30 s on a slow machine.
  group.each.timeout(120_000)
  let endpoints: string[] = []
  group.each.teardown(async () => {
    await WebhookEndpoint.query().whereIn('id', endpoints).delete()
    endpoints = []
  })

  test('access finds the person in every publisher and returns one document', async ({
    client,
    assert,
  }) => {
    const held = await personEverywhere(client)
    endpoints.push(held.endpoint)
    const done = await fileRequest(client, held.operator, {
      kind: 'access',
      email: held.person.email.toUpperCase(),
    })
    assert.equal(done.status, 'completed')
    const bySlug = Object.fromEntries(
      done.result.publishers.map((entry: any) => [entry.publisher, entry])
    )
    assert.sameMembers(Object.keys(bySlug), [held.world.publisher.slug, held.other.publisher.slug])
    const mine = bySlug[held.world.publisher.slug]
    assert.equal(mine.leads[0].id, held.leadId)
    assert.equal(mine.leads[0].contact.email.toLowerCase(), held.person.email.toLowerCase())
    assert.equal(mine.leads[0].consent.ip, held.person.ip)
    assert.include(mine.leads[0].dispute_messages[0].text, held.person.phone)
    assert.includeMembers(
      mine.leads[0].events.map((event: any) => event.type),
      ['lead.received', 'match.found']
    )
    assert.lengthOf(mine.upload_rows, 1)
    assert.isNotNull(done.result_expires_at)

    const byPhone = await fileRequest(client, held.operator, {
      kind: 'access',
      phone: held.person.phone,
    })
    assert.lengthOf(byPhone.result.publishers, 2)
  })

  test('erasure leaves the person nowhere, keeps facts and money, and every proof still verifies', async ({
    client,
    assert,
  }) => {
    const held = await personEverywhere(client)
    endpoints.push(held.endpoint)
    const { person, leadId } = held
    // An earlier access document is a copy too.
    await fileRequest(client, held.operator, { kind: 'access', email: person.email })
    await sealer.sealAll()
    const factsBefore = await factsOf(leadId)
    const ledgerBefore = await ledgerOf(leadId)
    const needles = [person.email, person.phone, person.ip]
    assert.isNotEmpty(Object.keys(await findEverywhere(needles)))

    const done = await fileRequest(client, held.operator, {
      kind: 'erasure',
      email: person.email,
      phone: person.phone,
    })
    assert.equal(done.status, 'completed', JSON.stringify(done))
    assert.equal(done.result.leads, 2)
    assert.equal(done.result.salts, 2)
    assert.equal(done.result.access_documents, 1)
    assert.notInclude(JSON.stringify(done), person.email)

    assert.deepEqual(await findEverywhere(needles), {})
    assert.deepEqual(await findInRedis(needles), [])

    // The salt is gone: the commitments can no longer be tied to anyone.
    const tenancy = new TenancyService()
    const salts = await tenancy.run(held.world.publisher, (trx) =>
      trx.from('lead_secrets').where('lead_id', leadId)
    )
    assert.lengthOf(salts, 0)

    // Reports and money carry on from what is not personal.
    assert.deepEqual(await factsOf(leadId), factsBefore)
    assert.deepEqual(await ledgerOf(leadId), ledgerBefore)

    // The trail gained lead.erased; trail, inclusion proofs and checkpoint verify offline.
    await sealer.sealAll()
    const proof = await client
      .get('/v1/audit-logs/proof')
      .qs({ lead_id: leadId })
      .bearerToken(held.world.key)
    proof.assertStatus(200)
    const events = proof.body().entries.map((entry: any) => entry.event)
    assert.equal(events.at(-1), 'lead.erased')
    assert.notInclude(JSON.stringify(proof.body()), person.email)
    const verified = await verifyBundle(
      proof.body(),
      '--public-key',
      signer.publicKey.toString('base64')
    )
    assert.equal(verified.code, 0, verified.stdout)
    assert.match(verified.stdout.trim().split('\n').at(-1)!, /^VALID$/)
    const trail = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: leadId })
      .bearerToken(held.operator)
    assert.isTrue(trail.body().valid)

    // The consent evidence stays: the wording it names is the wording stored.
    const evidence = await db.from('audit.consent_evidence').where('lead_id', leadId).firstOrFail()
    const wording = await db
      .from('audit.consent_texts')
      .where('digest', evidence.text_digest)
      .firstOrFail()
    assert.equal(textDigest(wording.text), evidence.text_digest)
    assert.isNotNull(evidence.email_commitment)

    // The lead still reads, without its person.
    const lead = await client.get(`/v1/leads/${leadId}`).bearerToken(held.operator)
    lead.assertStatus(200)
    assert.notInclude(JSON.stringify(lead.body()), person.email)

    // Erasing again finds nothing more to do.
    const again = await fileRequest(client, held.operator, {
      kind: 'erasure',
      email: person.email,
    })
    assert.equal(again.result.leads, 0)
  })

  test('a request needs an e-mail or a phone; only the operator files and reads them', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const { key } = await routingPublisher()
    const bad = [
      {},
      { kind: 'access' },
      { kind: 'forget', email: 'a@example.nl' },
      { kind: 'access', email: 'not-an-email' },
      { kind: 'erasure', email: 'a@example.nl', extra: true },
    ]
    for (const body of bad) {
      const answer = await client.post('/v1/privacy/requests').bearerToken(operator).json(body)
      assert.equal(answer.status(), 422, JSON.stringify(body))
      assert.include(answer.header('content-type'), 'application/problem+json')
    }
    const refused = await client
      .post('/v1/privacy/requests')
      .bearerToken(key)
      .json({ kind: 'access', email: 'a@example.nl' })
    assert.equal(refused.status(), 403)
    const missing = await client.get(`/v1/privacy/requests/${uuidv7()}`).bearerToken(operator)
    assert.equal(missing.status(), 404)

    // A live request holds live people's data: the operator's sandbox key sees no such thing.
    const filed = await client
      .post('/v1/privacy/requests')
      .bearerToken(operator)
      .json({ kind: 'access', email: 'sandboxed@example.nl' })
    filed.assertStatus(202)
    const sandbox = (await createKey({ environment: 'sandbox' })).secret
    const hidden = await client.get(`/v1/privacy/requests/${filed.body().id}`).bearerToken(sandbox)
    assert.equal(hidden.status(), 404)
    assert.notInclude(hidden.text(), 'sandboxed@example.nl')
    const seen = await client.get(`/v1/privacy/requests/${filed.body().id}`).bearerToken(operator)
    seen.assertStatus(200)
  })
})
