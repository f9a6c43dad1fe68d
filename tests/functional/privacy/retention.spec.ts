import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Sealer from '#services/audit/audit_sealer_service'
import { CheckpointSigner } from '#services/audit/checkpoint_signing'
import TenancyService from '#services/platform/tenancy_service'
import { purgeOnce, purgeUnderLock } from '#services/privacy/retention_purge'
import locks from '@adonisjs/lock/services/main'
import { createKey, createLabel, livePublisher, operatorKey } from '#tests/support/fixtures'
import { ledgerOf, soldLead } from '#tests/support/money'
import { acceptedLead, factsOf } from '#tests/functional/routing/routing_support'
import { findEverywhere, subject, verifyBundle } from '#tests/functional/privacy/privacy_support'

const DAY = 86_400_000
const later = (days: number) => new Date(Date.now() + days * DAY)
const sealer = new Sealer()
const signer = CheckpointSigner.configured()

const KEEP = {
  contact_days: null,
  ip_days: null,
  attributes_days: null,
  uploads_days: null,
  webhook_payload_days: null,
  access_log_days: null,
}

async function retention(client: any, labelId: string, periods: Record<string, number | null>) {
  const answer = await client
    .put(`/v1/labels/${labelId}/retention`)
    .bearerToken(await operatorKey())
    .json({ ...KEEP, ...periods })
  answer.assertStatus(200)
  return answer.body()
}

async function leadRow(publisher: any, leadId: string) {
  return new TenancyService().run(publisher, (trx) =>
    trx.from('leads').where('id', leadId).firstOrFail()
  )
}

test.group('Privacy / retention periods', () => {
  test('the operator reads and replaces a label’s periods; bad input changes nothing', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await operatorKey()
    const url = `/v1/labels/${label.id}/retention`
    const fresh = await client.get(url).bearerToken(operator)
    fresh.assertStatus(200)
    assert.deepEqual(fresh.body(), KEEP)

    const set = await retention(client, label.id, { contact_days: 30, ip_days: 7 })
    assert.deepEqual(set, { ...KEEP, contact_days: 30, ip_days: 7 })
    for (const body of [
      { ...KEEP, contact_days: 0 },
      { ...KEEP, contact_days: '30' },
      { ...KEEP, contact_days: 4000 },
      { ...KEEP, extra: 1 },
      { contact_days: 30 },
    ]) {
      const refused = await client.put(url).bearerToken(operator).json(body)
      assert.equal(refused.status(), 422, JSON.stringify(body))
    }
    assert.deepEqual((await client.get(url).bearerToken(operator)).body(), set)

    const { key } = await livePublisher()
    assert.include([403, 404], (await client.get(url).bearerToken(key)).status())
  })
})

test.group('Privacy / the purge job', () => {
  test('contact data past its period is erased, reports, money and proofs hold, and a second run finds nothing', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    await retention(client, label.id, { contact_days: 30 })
    const person = subject()
    const sold = await soldLead(client, {
      label,
      contact: { email: person.email, phone: person.phone },
    })
    const facts = await factsOf(sold.leadId)
    const ledger = await ledgerOf(sold.leadId)

    // Not due yet: nothing of this lead changes (the run's counts also hold other tests' labels).
    await purgeOnce(later(29), 2)
    assert.equal((await leadRow(sold.publisher, sold.leadId)).email_key, person.email.toLowerCase())

    const due = await purgeOnce(later(31), 2)
    assert.isAtLeast(due.leads_erased, 1)
    const erased = await leadRow(sold.publisher, sold.leadId)
    assert.isNull(erased.email_key)
    assert.notProperty(erased.contact, 'email')
    assert.deepEqual(await findEverywhere([person.email, person.phone]), {})
    assert.deepEqual(await factsOf(sold.leadId), facts)
    assert.deepEqual(await ledgerOf(sold.leadId), ledger)

    await sealer.sealAll()
    const proof = await client
      .get('/v1/audit-logs/proof')
      .qs({ lead_id: sold.leadId })
      .bearerToken(sold.key)
    assert.equal(proof.body().entries.at(-1).event, 'lead.erased')
    assert.equal(proof.body().entries.at(-1).actor, 'system:retention')
    const verified = await verifyBundle(
      proof.body(),
      '--public-key',
      signer.publicKey.toString('base64')
    )
    assert.equal(verified.code, 0, verified.stdout)

    const run = await db.from('purge_runs').orderBy('started_at', 'desc').firstOrFail()
    assert.isNotNull(run.finished_at)
    assert.notInclude(JSON.stringify(run), person.email)
    const again = await purgeOnce(later(31), 2)
    const mine = await leadRow(sold.publisher, sold.leadId)
    assert.deepEqual(mine, erased, 'a second run changes nothing of what was purged')
    assert.equal(again.leads_erased, 0)
  })

  test('categories go separately, in batches smaller than what is due', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    await retention(client, label.id, {
      contact_days: 60,
      ip_days: 10,
      attributes_days: 20,
      webhook_payload_days: 5,
      access_log_days: 5,
    })
    const world = await livePublisher()
    world.publisher.merge({ labelId: label.id })
    await world.publisher.save()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      ids.push(await acceptedLead(client, world, { attributes: { age: 40 + i } }))
    }
    await db.table('access_log').insert({
      actor: 'operator:someone',
      action: 'lead.looked_up',
      subject_type: 'lead',
      subject_id: ids[0],
      publisher_id: world.publisher.id,
      details: JSON.stringify({}),
    })

    // An event still being delivered somewhere (another test's endpoint in the shared database
    // may hold these leads' events too) waits for its delivery to end; the rest go.
    const eventIds = async (stillDelivering: boolean) =>
      (
        await db
          .from('outbox_events as e')
          .whereIn('e.lead_id', ids)
          [stillDelivering ? 'whereExists' : 'whereNotExists']((open) =>
            open
              .from('webhook_deliveries as d')
              .whereRaw('d.event_id = e.id')
              .whereIn('d.status', ['pending', 'failed'])
          )
          .select('e.id')
      ).map((row) => row.id as string)
    const delivering = await eventIds(true)
    const done = await eventIds(false)
    assert.isAtLeast(delivering.length + done.length, ids.length)
    const first = await purgeOnce(later(11), 1)
    assert.isAtLeast(first.ips_removed, 3)
    assert.isAtLeast(first.events_deleted, done.length)
    assert.isAtLeast(first.access_log_deleted, 1)
    assert.equal(first.attributes_removed, 0)
    for (const id of ids) {
      const row = await leadRow(world.publisher, id)
      assert.notProperty(row.consent, 'ip')
      assert.isTrue(row.consent.given)
      assert.isNotNull(row.email_key)
      assert.notDeepEqual(row.attributes, {})
    }
    const left = await db.from('outbox_events').whereIn('lead_id', ids).select('id')
    assert.sameMembers(
      left.map((row) => row.id),
      delivering
    )

    const second = await purgeOnce(later(21), 1)
    assert.isAtLeast(second.attributes_removed, 3)
    for (const id of ids) {
      const row = await leadRow(world.publisher, id)
      assert.deepEqual(row.attributes, {})
      // Contact data is kept 60 days: still there.
      assert.isNotNull(row.email_key)
    }
  })

  test('an upload’s rows go after the uploads period; the lead they made stays', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    await retention(client, label.id, { uploads_days: 30 })
    const world = await livePublisher()
    world.publisher.merge({ labelId: label.id, deliveryMethods: ['api', 'upload'] })
    await world.publisher.save()
    const { secret } = await createKey({ publisherId: world.publisher.id })
    const upload = await client
      .post('/v1/uploads')
      .bearerToken(secret)
      .file('file', Buffer.from('email,phone\r\nrow@example.nl,+31612345678\r\n'), {
        filename: 'people.csv',
      })
    upload.assertStatus(202)
    const counts = await purgeOnce(later(31), 1)
    assert.isAtLeast(counts.upload_rows_deleted, 1)
    assert.isAtLeast(counts.uploads_minimised, 1)
    const left = await new TenancyService().run(world.publisher, async (trx) => ({
      rows: await trx.from('upload_rows').where('upload_id', upload.body().id),
      upload: await trx.from('uploads').where('id', upload.body().id).firstOrFail(),
    }))
    assert.lengthOf(left.rows, 0)
    assert.isNull(left.upload.filename)
  })

  test('one runner at a time: while another holds the purge lock, a run does nothing', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    await retention(client, label.id, { attributes_days: 1 })
    const world = await livePublisher()
    world.publisher.merge({ labelId: label.id })
    await world.publisher.save()
    const leadId = await acceptedLead(client, world, { attributes: { age: 41 } })

    const held = locks.createLock('privacy:purge', '1 minute')
    assert.isTrue(await held.acquireImmediately())
    try {
      assert.isNull(await purgeUnderLock(later(2), 10))
      assert.deepEqual((await leadRow(world.publisher, leadId)).attributes, { age: 41 })
    } finally {
      await held.release()
    }
    const counts = await purgeUnderLock(later(2), 10)
    assert.isAtLeast(counts!.attributes_removed, 1)
    assert.deepEqual((await leadRow(world.publisher, leadId)).attributes, {})
  })
})
