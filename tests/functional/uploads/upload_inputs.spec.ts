import { test } from '@japa/runner'
import uploadsConfig from '#config/uploads'
import { startUploadWorker } from '#services/uploads/upload_worker'
import { createBuyer, createKey, livePublisher } from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'
import {
  allRows,
  csvOf,
  leadsOf,
  tenantRows,
  upload,
  uploadIn,
  uploadingPublisher,
  validRow,
} from '#tests/functional/uploads/upload_support'

/** Runs a refused upload and asserts it changed no table. */
async function refusedWithoutTrace(attempt: () => Promise<any>) {
  const before = await snapshotDatabase()
  const response = await attempt()
  const changed = Object.keys(snapshotDifference(before, await snapshotDatabase()))
  return { response, changed }
}

test.group('Uploads / files, encodings, mapping', (group) => {
  group.setup(async () => startUploadWorker({ sweep: false }))

  test('UTF-8 with a BOM and ";" as delimiter', async ({ client, assert }) => {
    const { publisher, key } = await uploadingPublisher()
    const text = csvOf([validRow({ name: 'Zoë Ångström' }), validRow()], ';')
    const created = await upload(
      client,
      key,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
    )
    created.assertStatus(202)
    const done = await uploadIn(client, key, created.body().id, 'validated')
    assert.equal(done.delimiter, ';')
    assert.equal(done.encoding, 'utf-8')
    assert.equal(done.columns[0], 'name')
    assert.deepEqual(done.counts, { accepted: 2, flagged: 0, rejected: 0 })
    const [row] = await tenantRows(publisher, 'upload_rows')
    assert.equal(row.raw[0], 'Zoë Ångström')
  })

  test('Windows-1252 (no BOM, not UTF-8) and UTF-16 with a BOM and tabs', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await uploadingPublisher()
    const latin = Buffer.from(csvOf([validRow({ name: 'François Müller' })]), 'latin1')
    const first = await upload(client, key, latin)
    first.assertStatus(202)
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(csvOf([validRow({ name: 'Łukasz Żak' })], '\t'), 'utf16le'),
    ])
    const second = await upload(client, key, utf16, { filename: 'leads.txt' })
    second.assertStatus(202)
    const a = await uploadIn(client, key, first.body().id, 'validated')
    const b = await uploadIn(client, key, second.body().id, 'validated')
    assert.equal(a.encoding, 'windows-1252')
    assert.equal(b.encoding, 'utf-16le')
    assert.equal(b.delimiter, '\t')
    assert.deepEqual([a.counts.accepted, b.counts.accepted], [1, 1])
    const names = (await tenantRows(publisher, 'upload_rows')).map((row: any) => row.raw[0])
    assert.sameMembers(names, ['François Müller', 'Łukasz Żak'])
  })

  test('JSON Lines, flat or nested like POST /v1/leads; a line that is no object is rejected', async ({
    client,
    assert,
  }) => {
    const { key } = await uploadingPublisher()
    const flat = validRow()
    const nested = validRow()
    const lines = [
      JSON.stringify({ ...flat, consent_given: true, monthly_bill: 95 }),
      JSON.stringify({
        contact: { name: nested.name, email: nested.email, phone: nested.phone, country: 'NL' },
        provenance: { source: 'newsletter' },
        consent: {
          given: true,
          text: nested.consent_text,
          timestamp: nested.consent_timestamp,
          ip: nested.consent_ip,
        },
        attributes: { monthly_bill: 150 },
      }),
      '[1, 2, 3]',
      '{not json',
      '',
    ].join('\n')
    const created = await upload(client, key, lines, { filename: 'leads.jsonl' })
    created.assertStatus(202)
    const done = await uploadIn(client, key, created.body().id, 'validated')
    assert.equal(done.format, 'jsonl')
    assert.equal(done.rows, 4)
    assert.equal(done.mapping['contact.email'], 'contact.email')
    assert.equal(done.mapping.email, 'contact.email')
    assert.equal(done.mapping['attributes.monthly_bill'], 'attributes.monthly_bill')
    const rows = await allRows(client, key, done.id)
    assert.deepEqual(
      rows.map((row) => row.outcome),
      ['accepted', 'accepted', 'rejected', 'rejected']
    )
    assert.equal(rows[2].reasons[0].code, 'malformed_row')
  })

  test('an explicit mapping names the columns; unknown columns become attributes or are reported', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await uploadingPublisher()
    const row = validRow()
    const text = csvOf([
      {
        'Mail address': row.email,
        'Mobile no.': row.phone,
        'Consent?': 'ja',
        'consent_text': row.consent_text,
        'consent_timestamp': row.consent_timestamp.replace('T', ' ').replace(/\.\d+Z$/, ''),
        'consent_ip': row.consent_ip,
        'product': 'solar',
        'Monthly bill': '95',
        'Notes (internal)': 'call after 5',
        'publisher': 'someone-else',
      },
    ])
    const created = await upload(client, key, text, {
      mapping: {
        'Mail address': 'contact.email',
        'Mobile no.': 'contact.phone',
        'Consent?': 'consent.given',
      },
    })
    created.assertStatus(202)
    const done = await uploadIn(client, key, created.body().id, 'validated')
    assert.deepEqual(done.counts, { accepted: 1, flagged: 0, rejected: 0 })
    assert.equal(done.mapping.product, 'attributes.product')
    assert.deepEqual(
      done.unmapped_columns.map((column: any) => column.column),
      ['Notes (internal)', 'publisher']
    )
    ;(await client.post(`/v1/uploads/${done.id}/accept`).bearerToken(key).json({})).assertStatus(
      202
    )
    await uploadIn(client, key, done.id, 'accepted')
    const [lead] = (await leadsOf(publisher)) as any[]
    assert.equal(lead.email_key, row.email)
    assert.deepEqual(lead.attributes, { product: 'solar', monthly_bill: 95 })
    assert.isTrue(lead.consent.given)
  })

  test('a mapping that does not fit the file, or is no JSON, is refused and stores nothing', async ({
    client,
    assert,
  }) => {
    const { key } = await uploadingPublisher()
    const text = csvOf([validRow()])
    for (const [mapping, code] of [
      [{ nope: 'contact.email' }, 'unknown_column'],
      [{ email: 'contact.shoe_size' }, 'unknown_field'],
      [{ email: 'contact.phone', phone: 'contact.phone' }, 'field_taken'],
      ['{broken', 'mapping_json'],
    ] as const) {
      const { response, changed } = await refusedWithoutTrace(() =>
        upload(client, key, text, { mapping })
      )
      assert.equal(response.status(), 422, String(code))
      assert.equal(response.header('content-type'), 'application/problem+json; charset=utf-8')
      assert.include(
        response.body().errors.map((error: any) => error.code),
        code,
        JSON.stringify(response.body())
      )
      assert.deepEqual(changed, [])
    }
  })

  test('limits: too many bytes is 413, too many rows 422; neither stores anything', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { key } = await uploadingPublisher()
    const saved = { ...uploadsConfig }
    cleanup(() => {
      Object.assign(uploadsConfig, saved)
    })
    uploadsConfig.maxBytes = 2000
    const big = csvOf(Array.from({ length: 20 }, () => validRow()))
    const tooBig = await refusedWithoutTrace(() => upload(client, key, big))
    tooBig.response.assertStatus(413)
    assert.equal(tooBig.response.body().code, 'upload_too_large')
    assert.deepEqual(tooBig.changed, [])

    uploadsConfig.maxBytes = saved.maxBytes
    uploadsConfig.maxRows = 5
    const tooMany = await refusedWithoutTrace(() => upload(client, key, big))
    tooMany.response.assertStatus(422)
    assert.equal(tooMany.response.body().code, 'too_many_rows')
    assert.deepEqual(tooMany.changed, [])
  })

  test('unreadable files answer 422 problems and store nothing', async ({ client, assert }) => {
    const { key } = await uploadingPublisher()
    const header = Object.keys(validRow()).join(',')
    // Past the first 64 KiB (and the first chunks), where the encoding was decided as UTF-8.
    const utf8Then1252 = Buffer.concat([
      Buffer.from(`${csvOf(Array.from({ length: 6000 }, () => validRow({ name: 'Zoë' })))}\r\n`),
      Buffer.from(csvOf([validRow({ name: 'Zoë' })]).split('\r\n')[1], 'latin1'),
    ])
    for (const [file, code] of [
      [`${header}\r\n"unclosed,quote\r\n`, 'malformed_csv'],
      [header, 'no_rows'],
      ['', 'no_rows'],
      ['name,name\r\na,b\r\n', 'duplicate_column'],
      [utf8Then1252, 'invalid_encoding'],
    ] as const) {
      const { response, changed } = await refusedWithoutTrace(() => upload(client, key, file))
      assert.equal(response.status(), 422, code)
      assert.include(
        JSON.stringify(response.body()),
        code,
        `${code}: ${JSON.stringify(response.body())}`
      )
      assert.deepEqual(changed, [], code)
    }
    const noFile = await client.post('/v1/uploads').bearerToken(key).field('mapping', '{}')
    noFile.assertStatus(422)
    const json = await client.post('/v1/uploads').bearerToken(key).json({ file: 'x' })
    json.assertStatus(415)
  })
})

test.group('Uploads / who may upload and see', (group) => {
  group.setup(async () => startUploadWorker({ sweep: false }))

  test('without "upload" among its delivery methods a publisher gets 403, naming how to enable it', async ({
    client,
    assert,
  }) => {
    const { key } = await livePublisher()
    const { response, changed } = await refusedWithoutTrace(() =>
      upload(client, key, csvOf([validRow()]))
    )
    response.assertStatus(403)
    assert.equal(response.body().code, 'delivery_method_not_enabled')
    assert.include(response.body().detail, 'PATCH /v1/publishers/{id}')
    assert.include(response.body().detail, 'delivery_methods')
    assert.deepEqual(changed, [])
  })

  test("another publisher's upload is 404 on every route; buyers and read-only keys are refused", async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await uploadingPublisher()
    const { key: otherKey } = await uploadingPublisher()
    const created = await upload(client, key, csvOf([validRow()]))
    const id = created.body().id
    await uploadIn(client, key, id, 'validated')
    for (const request of [
      client.get(`/v1/uploads/${id}`),
      client.get(`/v1/uploads/${id}/rows`),
      client.get(`/v1/uploads/${id}/rows`).header('accept', 'text/csv'),
      client.post(`/v1/uploads/${id}/accept`).json({}),
    ]) {
      const answer = await request.bearerToken(otherKey)
      answer.assertStatus(404)
      assert.equal(answer.body().code ?? JSON.parse(answer.text()).code, 'not_found')
    }
    const sandbox = (await createKey({ publisherId: publisher.id, environment: 'sandbox' })).secret
    ;(await client.get(`/v1/uploads/${id}`).bearerToken(sandbox)).assertStatus(404)
    const buyer = (await createKey({ buyerId: (await createBuyer()).id })).secret
    ;(await client.get(`/v1/uploads/${id}`).bearerToken(buyer)).assertStatus(403)
    ;(await upload(client, buyer, csvOf([validRow()]))).assertStatus(403)
    const readOnly = (await createKey({ publisherId: publisher.id, permissions: ['read'] })).secret
    ;(await upload(client, readOnly, csvOf([validRow()]))).assertStatus(403)
    ;(await client.post(`/v1/uploads/${id}/accept`).bearerToken(readOnly).json({})).assertStatus(
      403
    )
    assert.lengthOf(await leadsOf(publisher), 0)
  })

  test('the operator uploads for a publisher it names; a sandbox key uploads sandbox leads', async ({
    client,
    assert,
  }) => {
    const { publisher } = await uploadingPublisher()
    const operator = (await createKey()).secret
    const unnamed = await upload(client, operator, csvOf([validRow()]))
    unnamed.assertStatus(422)
    assert.equal(unnamed.body().errors[0].field, 'publisher')
    const named = await upload(client, operator, csvOf([validRow()]), {
      publisher: publisher.slug,
    })
    named.assertStatus(202)
    assert.equal(named.body().publisher, publisher.slug)
    await uploadIn(client, operator, named.body().id, 'validated')

    const sandbox = (await createKey({ publisherId: publisher.id, environment: 'sandbox' })).secret
    const created = await upload(client, sandbox, csvOf([validRow()]))
    created.assertStatus(202)
    assert.equal(created.body().environment, 'sandbox')
    await uploadIn(client, sandbox, created.body().id, 'validated')
    ;(
      await client.post(`/v1/uploads/${created.body().id}/accept`).bearerToken(sandbox).json({})
    ).assertStatus(202)
    await uploadIn(client, sandbox, created.body().id, 'accepted')
    const leads = (await leadsOf(publisher)) as any[]
    assert.deepEqual(
      leads.map((lead) => lead.environment),
      ['sandbox']
    )
  })

  test('accepting while validation runs answers 409 and changes nothing', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await uploadingPublisher()
    // No worker takes it in time: validation is paused by holding the batch size at one row and a long file.
    const created = await upload(client, key, csvOf(Array.from({ length: 3000 }, () => validRow())))
    const early = await client
      .post(`/v1/uploads/${created.body().id}/accept`)
      .bearerToken(key)
      .json({})
    if (early.status() === 409) {
      assert.equal(early.body().code, 'upload_not_validated')
      assert.lengthOf(await leadsOf(publisher), 0)
    }
    await uploadIn(client, key, created.body().id, 'validated')
  }).timeout(60_000)
})
