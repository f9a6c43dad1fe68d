import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createBuyer, createKey, livePublisher } from '#tests/support/fixtures'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { answerChecker } from '#tests/support/openapi_schemas'
import {
  disputable,
  disputeRow,
  eventsOf,
  openDispute,
  tenantRows,
} from '#tests/functional/money/disputes_support'
import { showsAmount } from '#tests/support/money'

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex')
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n')
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('not really an image, but it starts like one'),
])
const MB = 1024 * 1024

test.group('Money / disputes: answers with files', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the publisher attaches files: each stored with its SHA-256, in the thread and the event', async ({
    client,
    assert,
  }) => {
    const world = await disputable(client)
    const id = (await openDispute(client, world)).body().id
    const csv = Buffer.from('called_at,outcome\n2026-11-20T10:00:00Z,answered\n')
    const response = await client
      .post(`/v1/disputes/${id}/responses`)
      .bearerToken(world.key)
      .field('text', 'Call log and the signed form attached.')
      .file('attachments', PDF, { filename: 'form.pdf', contentType: 'application/pdf' })
      .file('attachments', csv, { filename: 'calls.csv', contentType: 'text/csv' })
      .file('attachments', PNG, { filename: 'screen.png', contentType: 'image/png' })
    response.assertStatus(201)
    const answer = response.body().thread.at(-1)
    assert.containsSubset(answer, {
      author: 'publisher',
      text: 'Call log and the signed form attached.',
    })
    assert.sameDeepMembers(
      answer.files.map((file: any) => [file.filename, file.size_bytes, file.sha256]),
      [
        ['form.pdf', PDF.length, sha256(PDF)],
        ['calls.csv', csv.length, sha256(csv)],
        ['screen.png', PNG.length, sha256(PNG)],
      ]
    )
    const stored = await tenantRows(
      world.publisher.schemaName,
      'SELECT id, filename, content_type, size_bytes, sha256, content FROM dispute_files WHERE dispute_id = ?',
      [id]
    )
    assert.lengthOf(stored, 3)
    for (const file of stored) {
      assert.equal(sha256(file.content), file.sha256)
      assert.equal(file.size_bytes, file.content.length)
    }
    assert.sameMembers(
      stored.map((file) => file.content_type),
      ['application/pdf', 'text/csv', 'image/png']
    )
    // The audit entry records the step; the digests travel in the event, to both parties.
    const events = await eventsOf(await disputeRow(id), 'dispute.responded')
    assert.lengthOf(events, 2)
    for (const event of events) {
      assert.sameMembers(
        event.payload.data.files.map((file: any) => file.sha256),
        stored.map((file) => file.sha256)
      )
      assert.sameMembers(
        event.payload.data.files.map((file: any) => file.id),
        answer.files.map((file: any) => file.id)
      )
    }
    // The buyer reads the same thread.
    const seen = await client.get(`/v1/disputes/${id}`).bearerToken(world.buyerKey)
    assert.deepEqual(seen.body().thread.at(-1).files, answer.files)
  })

  test('limits: too large 413, a kind not taken 415, one file too many 422; nothing is stored', async ({
    client,
    assert,
  }) => {
    const world = await disputable(client)
    const id = (await openDispute(client, world)).body().id
    const answer = () =>
      client
        .post(`/v1/disputes/${id}/responses`)
        .bearerToken(world.key)
        .field('text', 'See attached.')

    const large = await answer().file('attachments', Buffer.alloc(5 * MB + 1, 0x41), {
      filename: 'big.txt',
      contentType: 'text/plain',
    })
    large.assertStatus(413)
    assert.equal(large.body().code, 'file_too_large')

    const executable = await answer().file('attachments', Buffer.from('MZ\x90\x00binary'), {
      filename: 'tool.exe',
      contentType: 'application/octet-stream',
    })
    executable.assertStatus(415)
    assert.equal(executable.body().code, 'unsupported_file_type')
    // The bytes must be what the name says.
    const fake = await answer().file('attachments', Buffer.from('plain text'), {
      filename: 'scan.pdf',
      contentType: 'application/pdf',
    })
    fake.assertStatus(415)

    let six = answer()
    for (let i = 0; i < 6; i++) {
      six = six.file('attachments', PDF, { filename: `page-${i}.pdf` })
    }
    const tooMany = await six
    tooMany.assertStatus(422)
    assert.equal(tooMany.body().errors[0].code, 'too_many_files')

    const noText = await client
      .post(`/v1/disputes/${id}/responses`)
      .bearerToken(world.key)
      .file('attachments', PDF, { filename: 'form.pdf' })
    noText.assertStatus(422)

    const elsewhere = await answer().file('evidence', PDF, { filename: 'form.pdf' })
    elsewhere.assertStatus(422)

    assert.equal((await disputeRow(id)).status, 'open')
    const stored = await tenantRows(
      world.publisher.schemaName,
      `SELECT (SELECT count(*) FROM dispute_files WHERE dispute_id = ?)::int AS files,
              (SELECT count(*) FROM dispute_messages WHERE dispute_id = ?)::int AS messages`,
      [id, id]
    )
    assert.deepEqual(stored[0], { files: 0, messages: 1 })

    // Five files of the largest size are fine.
    let five = answer()
    for (let i = 0; i < 5; i++) {
      five = five.file('attachments', Buffer.alloc(5 * MB, 0x42), { filename: `log-${i}.txt` })
    }
    ;(await five).assertStatus(201)
  }).timeout(60_000)
})

test.group('Money / disputes: who sees what', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test("another publisher's or buyer's dispute answers 404 on every route", async ({
    client,
    assert,
  }) => {
    const world = await disputable(client)
    const id = (await openDispute(client, world)).body().id
    const otherPublisher = await livePublisher()
    const { secret: otherBuyer } = await createKey({ buyerId: (await createBuyer()).id })

    // Another buyer cannot learn the lead exists, let alone return it.
    const foreignOpen = await openDispute(client, { ...world, buyerKey: otherBuyer })
    foreignOpen.assertStatus(404)
    // The publisher of the lead is not its buyer.
    ;(await openDispute(client, { ...world, buyerKey: world.key })).assertStatus(403)

    for (const key of [otherPublisher.key, otherBuyer]) {
      ;(await client.get(`/v1/disputes/${id}`).bearerToken(key)).assertStatus(404)
      const list = await client.get('/v1/disputes').bearerToken(key)
      list.assertStatus(200)
      assert.notInclude(
        list.body().data.map((dispute: any) => dispute.id),
        id
      )
    }
    const foreignAnswer = await client
      .post(`/v1/disputes/${id}/responses`)
      .bearerToken(otherPublisher.key)
      .json({ text: 'Not mine.' })
    foreignAnswer.assertStatus(404)
    ;(await client.post(`/v1/disputes/${id}/withdraw`).bearerToken(otherBuyer)).assertStatus(404)
    // A sandbox key of the right buyer neither sees nor touches the live world: its steps reach
    // sandbox disputes only (sandbox_money.spec.ts), so a live one is not found.
    const { secret: sandbox } = await createKey({
      buyerId: world.buyer.id,
      environment: 'sandbox',
    })
    ;(await client.get(`/v1/disputes/${id}`).bearerToken(sandbox)).assertStatus(404)
    ;(await client.post(`/v1/disputes/${id}/withdraw`).bearerToken(sandbox)).assertStatus(404)
    ;(
      await client
        .post(`/v1/leads/${world.leadId}/disputes`)
        .bearerToken(sandbox)
        .json({ reason: 'fraud', details: 'From the sandbox.' })
    ).assertStatus(404)
    assert.equal((await disputeRow(id)).status, 'open')
  })

  test('a publisher never reads price or buyer; a buyer never payout or publisher; the operator both', async ({
    client,
    assert,
  }) => {
    const world = await disputable(client, { priceCents: 7300, payoutCents: 5100 })
    const id = (await openDispute(client, world)).body().id

    const byPublisher = await client.get(`/v1/disputes/${id}`).bearerToken(world.key)
    byPublisher.assertStatus(200)
    assert.deepEqual(Object.keys(byPublisher.body().delivery).sort(), [
      'currency',
      'delivered_at',
      'payout_cents',
    ])
    assert.notProperty(byPublisher.body(), 'buyer_id')
    for (const secret of ['7300', world.buyer.id]) {
      assert.notInclude(byPublisher.text(), secret)
    }

    const byBuyer = await client.get(`/v1/disputes/${id}`).bearerToken(world.buyerKey)
    assert.deepEqual(Object.keys(byBuyer.body().delivery).sort(), [
      'currency',
      'delivered_at',
      'price_cents',
    ])
    assert.notProperty(byBuyer.body(), 'publisher_id')
    for (const secret of ['5100', world.publisher.id, world.publisher.slug]) {
      assert.notInclude(byBuyer.text(), secret)
    }

    const byOperator = await client.get(`/v1/disputes/${id}`).bearerToken(world.operatorKey)
    assert.containsSubset(byOperator.body(), {
      publisher_id: world.publisher.id,
      buyer_id: world.buyer.id,
      delivery: { price_cents: 7300, payout_cents: 5100 },
    })
    assert.isString(byOperator.body().delivery.routing_rule_id)

    // The lists say the same, and each party's events carry only its own figure.
    const publisherList = await client.get('/v1/disputes').bearerToken(world.key)
    assert.deepEqual(
      publisherList.body().data.map((dispute: any) => dispute.id),
      [id]
    )
    assert.isFalse(showsAmount(publisherList.text(), 7300))
    const buyerList = await client.get('/v1/disputes').bearerToken(world.buyerKey)
    assert.deepEqual(
      buyerList.body().data.map((dispute: any) => dispute.id),
      [id]
    )
    assert.isFalse(showsAmount(buyerList.text(), 5100))
    const events = await eventsOf(await disputeRow(id), 'dispute.opened')
    const toPublisher = events.find((event) => event.publisher_id !== null)!
    const toBuyer = events.find((event) => event.buyer_id !== null)!
    assert.isFalse(showsAmount(JSON.stringify(toPublisher.payload), 7300))
    assert.notInclude(JSON.stringify(toPublisher.payload), world.buyer.id)
    assert.isFalse(showsAmount(JSON.stringify(toBuyer.payload), 5100))
    assert.notInclude(JSON.stringify(toBuyer.payload), world.publisher.id)

    // Only the operator filters by whom; statuses filter for everyone.
    const filtered = await client
      .get(`/v1/disputes?publisher_id=${world.publisher.id}&status=open`)
      .bearerToken(world.operatorKey)
    assert.deepEqual(
      filtered.body().data.map((dispute: any) => dispute.id),
      [id]
    )
    const byBuyerFilter = await client
      .get(`/v1/disputes?buyer_id=${world.buyer.id}`)
      .bearerToken(world.key)
    byBuyerFilter.assertStatus(403)
    const closed = await client.get('/v1/disputes?status=upheld').bearerToken(world.key)
    assert.deepEqual(closed.body().data, [])
  })

  test('pages newest first with a cursor', async ({ client, assert }) => {
    const world = await disputable(client)
    const first = (await openDispute(client, world)).body().id
    await client.post(`/v1/disputes/${first}/withdraw`).bearerToken(world.buyerKey)
    const second = (await openDispute(client, world, { reason: 'fraud' })).body().id
    const page = await client.get('/v1/disputes?limit=1').bearerToken(world.buyerKey)
    assert.deepEqual(
      page.body().data.map((dispute: any) => dispute.id),
      [second]
    )
    const next = await client
      .get(`/v1/disputes?limit=1&cursor=${page.body().next_cursor}`)
      .bearerToken(world.buyerKey)
    assert.deepEqual(
      next.body().data.map((dispute: any) => dispute.id),
      [first]
    )
    assert.isNull(next.body().next_cursor)
    const count = await db.from('disputes').where('lead_id', world.leadId).count('* as n').first()
    assert.equal(Number(count.n), 2)
  })
})

test.group('Money / disputes: answers match the document', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('every dispute answer, as each party reads it, is what the OpenAPI document says', async ({
    client,
  }) => {
    const conforms = answerChecker((await client.get('/v1/openapi.json')).body())
    const world = await disputable(client)
    const opened = await openDispute(client, world)
    conforms(opened, 'POST', '/v1/leads/{id}/disputes')
    const id = opened.body().id
    conforms(await openDispute(client, world), 'POST', '/v1/leads/{id}/disputes')
    for (const key of [world.key, world.buyerKey, world.operatorKey]) {
      conforms(await client.get(`/v1/disputes/${id}`).bearerToken(key), 'GET', '/v1/disputes/{id}')
      conforms(await client.get('/v1/disputes').bearerToken(key), 'GET', '/v1/disputes')
    }
    const path = '/v1/disputes/{id}/responses'
    const answer = () => client.post(`/v1/disputes/${id}/responses`).bearerToken(world.key)
    conforms(
      await answer()
        .field('text', 'x')
        .file('attachments', Buffer.from('MZ'), { filename: 'a.exe' }),
      'POST',
      path
    )
    conforms(
      await answer()
        .field('text', 'Form attached.')
        .file('attachments', PDF, { filename: 'form.pdf' }),
      'POST',
      path
    )
    conforms(await answer().json({ text: 'And a note.' }), 'POST', path)
    conforms(await answer().json({}), 'POST', path)
    const decision = await client
      .post(`/v1/disputes/${id}/decision`)
      .bearerToken(world.operatorKey)
      .json({ outcome: 'rejected', note: 'Consent is on record.' })
    conforms(decision, 'POST', '/v1/disputes/{id}/decision')
    conforms(
      await client.post(`/v1/disputes/${id}/withdraw`).bearerToken(world.buyerKey),
      'POST',
      '/v1/disputes/{id}/withdraw'
    )
    const next = await openDispute(client, world, { reason: 'fraud' })
    conforms(
      await client.post(`/v1/disputes/${next.body().id}/withdraw`).bearerToken(world.buyerKey),
      'POST',
      '/v1/disputes/{id}/withdraw'
    )
  })
})
