import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { startUploadWorker } from '#services/uploads/upload_worker'
import { leadBody } from '#tests/support/fixtures'
import { answerChecker } from '#tests/support/openapi_schemas'
import {
  CONSENT_TEXT,
  allRows,
  auditActors,
  csvOf,
  leadsOf,
  tenantRows,
  upload,
  uploadIn,
  uploadingPublisher,
  validRow,
} from '#tests/functional/uploads/upload_support'

let stopWorker: (() => Promise<void>) | undefined
let checkAnswer: ReturnType<typeof answerChecker>

test.group('Uploads / validate, report, accept', (group) => {
  group.setup(async () => {
    stopWorker = await startUploadWorker({ sweep: false })
    return () => stopWorker?.()
  })

  test('a CSV is judged row by row without a lead, reported, then accepted once', async ({
    client,
    assert,
  }) => {
    checkAnswer ??= answerChecker((await client.get('/v1/openapi.json')).body())
    const { publisher, key } = await uploadingPublisher()
    // A lead already stored: a row with its e-mail is a duplicate of it.
    const stored = leadBody(publisher.slug)
    ;(await client.post('/v1/leads').bearerToken(key).json(stored)).assertStatus(201)

    const first = validRow()
    const rows = [
      first,
      validRow({ phone: '0612' }),
      validRow({ consent_given: 'no' }),
      { ...validRow(), email: first.email },
      validRow({ email: stored.contact.email }),
      validRow({ monthly_bill: '40' }),
      validRow({ name: '=HYPERLINK("http://evil.example","click")' }),
    ]
    const text = `${csvOf(rows)}\r\nragged,row\r\n`
    const created = await upload(client, key, text)
    created.assertStatus(202)
    checkAnswer(created, 'POST', '/v1/uploads')
    assert.equal(created.body().status, 'validating')
    assert.equal(created.body().rows, 8)

    const validated = await uploadIn(client, key, created.body().id, 'validated')
    assert.deepEqual(validated.counts, { accepted: 2, flagged: 1, rejected: 5 })
    assert.deepEqual(validated.progress, { step: 'validate', done: 8, total: 8, percent: 100 })
    assert.equal(validated.format, 'csv')
    assert.equal(validated.delimiter, ',')
    assert.equal(validated.encoding, 'utf-8')
    assert.equal(validated.mapping.email, 'contact.email')
    assert.equal(validated.mapping.zip, 'contact.postal_code')
    assert.equal(validated.mapping.utm_source, 'provenance.source')
    assert.equal(validated.mapping.monthly_bill, 'attributes.monthly_bill')
    assert.deepEqual(validated.unmapped_columns, [])
    // Validation writes no lead: only the one sent by the API is there.
    assert.lengthOf(await leadsOf(publisher), 1)

    const report = await allRows(client, key, validated.id)
    const outcome = (row: number) => report[row - 1]
    assert.equal(outcome(1).outcome, 'accepted')
    assert.equal(outcome(2).outcome, 'rejected')
    assert.deepInclude(
      outcome(2).reasons.map((r: any) => r.code),
      'invalid_phone'
    )
    assert.include(
      outcome(3).reasons.map((r: any) => r.code),
      'missing_consent'
    )
    assert.include(
      outcome(4).reasons.map((r: any) => r.code),
      'duplicate'
    )
    assert.include(
      outcome(5).reasons.map((r: any) => r.code),
      'duplicate'
    )
    assert.equal(outcome(6).outcome, 'flagged')
    assert.equal(outcome(7).outcome, 'accepted')
    assert.equal(outcome(8).outcome, 'rejected')
    assert.include(
      outcome(8).reasons.map((r: any) => r.code),
      'malformed_row'
    )
    const rejectedOnly = await client
      .get(`/v1/uploads/${validated.id}/rows`)
      .bearerToken(key)
      .qs({ outcome: 'rejected' })
    checkAnswer(rejectedOnly, 'GET', '/v1/uploads/{id}/rows')
    assert.deepEqual(
      rejectedOnly.body().data.map((row: any) => row.row),
      [2, 3, 4, 5, 8]
    )

    // The report as CSV: the formula cell is escaped.
    const csv = await client
      .get(`/v1/uploads/${validated.id}/rows`)
      .bearerToken(key)
      .header('accept', 'text/csv')
    csv.assertStatus(200)
    assert.match(csv.header('content-type') ?? '', /^text\/csv/)
    assert.include(csv.text(), `"'=HYPERLINK(""http://evil.example"",""click"")"`)
    assert.notMatch(csv.text(), /(^|,)"?=HYPERLINK/m)
    assert.include(csv.text().split('\n')[0], 'row,outcome,reasons,lead_id,lead_status,name,email')

    // Accept: the two valid rows become leads, channel upload, actor the key.
    const accepting = await client
      .post(`/v1/uploads/${validated.id}/accept`)
      .bearerToken(key)
      .json({})
    accepting.assertStatus(202)
    checkAnswer(accepting, 'POST', '/v1/uploads/{id}/accept')
    const accepted = await uploadIn(client, key, validated.id, 'accepted')
    assert.equal(accepted.leads_created, 2)
    const leads = (await leadsOf(publisher)).filter((lead: any) => lead.channel === 'upload')
    assert.lengthOf(leads, 2)
    assert.deepEqual(leads.map((lead: any) => lead.status).sort(), ['accepted', 'accepted'])
    assert.sameMembers(
      leads.map((lead: any) => lead.email_key),
      [first.email, rows[6].email]
    )
    const keyRow = await db
      .from('api_keys')
      .where('publisher_id', publisher.id)
      .select('id')
      .firstOrFail()
    const entries = await auditActors(leads.map((lead: any) => lead.id))
    assert.lengthOf(entries, 8)
    assert.isTrue(
      entries
        .filter((entry) => entry.event === 'lead.received' || entry.event === 'consent.captured')
        .every((entry) => entry.actor === `api_key:${keyRow.id}`)
    )
    const evidence = await db.from('audit.consent_evidence').whereIn(
      'lead_id',
      leads.map((lead: any) => lead.id)
    )
    assert.lengthOf(evidence, 2)
    assert.isTrue(evidence.every((row) => row.method === 'upload'))
    const facts = await db.from('lead_facts').whereIn(
      'lead_id',
      leads.map((lead: any) => lead.id)
    )
    assert.isTrue(facts.every((fact) => fact.channel === 'upload' && fact.environment === 'live'))
    const events = await db
      .from('outbox_events')
      .whereIn(
        'lead_id',
        leads.map((lead: any) => lead.id)
      )
      .select('type')
    assert.sameMembers(
      events.map((event) => event.type),
      ['lead.received', 'lead.received', 'consent.recorded', 'consent.recorded']
    )
    const marked = (await allRows(client, key, validated.id)).filter((row) => row.lead_id)
    assert.deepEqual(
      marked.map((row) => row.row),
      [1, 7]
    )
    assert.sameMembers(
      marked.map((row) => row.lead_id),
      leads.map((lead: any) => lead.id)
    )

    // Accepting again creates nothing new.
    ;(
      await client.post(`/v1/uploads/${validated.id}/accept`).bearerToken(key).json({})
    ).assertStatus(202)
    await uploadIn(client, key, validated.id, 'accepted')
    assert.lengthOf(
      (await leadsOf(publisher)).filter((lead: any) => lead.channel === 'upload'),
      2
    )
    // And then the flagged row, when asked for.
    ;(
      await client
        .post(`/v1/uploads/${validated.id}/accept`)
        .bearerToken(key)
        .json({ include_flagged: true })
    ).assertStatus(202)
    const withFlagged = await uploadIn(client, key, validated.id, 'accepted')
    assert.equal(withFlagged.leads_created, 3)
    const uploaded = (await leadsOf(publisher)).filter((lead: any) => lead.channel === 'upload')
    assert.sameMembers(
      uploaded.map((lead: any) => lead.status),
      ['accepted', 'accepted', 'flagged']
    )
    assert.equal(CONSENT_TEXT, uploaded[0].consent.text)
    assert.lengthOf(await tenantRows(publisher, 'uploads'), 1)
  }).timeout(60_000)
})
