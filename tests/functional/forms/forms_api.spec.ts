import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Form from '#models/form'
import {
  createBuyer,
  createKey,
  createPublisher,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'
import { CONSENT, createForm, formBody } from '#tests/support/forms'

test.group('Forms / API', () => {
  test('a publisher creates a form: fields, consent version 1, its page and its embed snippet', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const body = formBody({ thank_you_url: 'https://site.example/thanks' })
    const response = await client.post('/v1/forms').bearerToken(key).json(body)

    response.assertStatus(201)
    const form = response.body()
    assert.equal(form.publisher_id, publisher.id)
    assert.equal(form.slug, body.slug)
    assert.deepEqual(form.fields, body.fields)
    assert.equal(form.consent_text, CONSENT)
    assert.equal(form.consent_version.version, 1)
    assert.isTrue(form.active)
    assert.match(form.url, new RegExp(`/f/${body.slug}$`))
    assert.include(form.embed_snippet, 'iframe')
    assert.include(form.embed_snippet, 'leadgate:form-height')
    assert.include(form.embed_snippet, `"${new URL(form.url).origin}"`)

    const versions = await db.from('form_consent_versions').where('form_id', form.id)
    assert.deepEqual(
      versions.map((version) => [version.version, version.text]),
      [[1, CONSENT]]
    )
    const logged = await db.from('access_log').where('subject_id', form.id).first()
    assert.equal(logged.action, 'form.created')

    const shown = await client.get(`/v1/forms/${form.id}`).bearerToken(key)
    shown.assertStatus(200)
    assert.deepEqual(shown.body().funnel, {
      days: 30,
      views: 0,
      starts: 0,
      submissions: 0,
      blocked: 0,
    })
    assert.lengthOf(shown.body().consent_versions, 1)
    assert.deepEqual(shown.body().missing_required_fields, [])
  })

  test('a changed consent wording makes a new version; the same wording does not', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const form = await createForm(publisher)
    const wording = 'I agree that Demo Energy may e-mail and call me about solar panels.'

    const changed = await client
      .patch(`/v1/forms/${form.id}`)
      .bearerToken(key)
      .json({ consent_text: wording, title: 'New title' })
    changed.assertStatus(200)
    assert.equal(changed.body().consent_version.version, 2)
    assert.equal(changed.body().consent_text, wording)
    assert.equal(changed.body().title, 'New title')

    const same = await client
      .patch(`/v1/forms/${form.id}`)
      .bearerToken(key)
      .json({ consent_text: wording })
    assert.equal(same.body().consent_version.version, 2)

    const shown = await client.get(`/v1/forms/${form.id}`).bearerToken(key)
    assert.deepEqual(
      shown.body().consent_versions.map((version: any) => [version.version, version.text]),
      [
        [2, wording],
        [1, CONSENT],
      ]
    )
    // The wording a lead was given under can never be rewritten.
    await assert.rejects(() =>
      db.from('form_consent_versions').where('form_id', form.id).update({ text: 'changed' })
    )
  })

  test('refused definitions say which field and store nothing', async ({ client, assert }) => {
    const { publisher, key } = await livePublisher()
    const taken = await createForm(publisher)
    const before = await db.from('forms').where('publisher_id', publisher.id).count('* as n')

    const cases: [Record<string, unknown>, number, string][] = [
      [{ slug: taken.slug }, 409, 'slug'],
      [{ embed_origins: ['https://site.example/page'] }, 422, 'embed_origins.0'],
      [
        {
          fields: [
            { name: 'email', label: 'a', required: true },
            { name: 'email', label: 'b', required: false },
          ],
        },
        422,
        'fields.1.name',
      ],
      [{ fields: [{ name: 'website', label: 'Site', required: false }] }, 422, 'fields.0.name'],
      [
        { fields: [{ name: 'roof', label: 'Roof', required: false, type: 'select' }] },
        422,
        'fields.0.name',
      ],
      [
        { fields: [{ name: 'email', label: 'E-mail', required: true, type: 'number' }] },
        422,
        'fields.0.name',
      ],
      [{ consent_text: 'too short' }, 422, 'consent_text'],
      [{ thank_you_url: 'javascript:alert(1)' }, 422, 'thank_you_url'],
      [{ colour: 'red' }, 422, 'colour'],
    ]
    for (const [override, status, field] of cases) {
      const response = await client
        .post('/v1/forms')
        .bearerToken(key)
        .json(formBody(override as any))
      response.assertStatus(status)
      const fields =
        status === 409
          ? [response.body().field]
          : response.body().errors.map((error: any) => error.field)
      assert.include(fields, field, JSON.stringify(override))
    }
    const after = await db.from('forms').where('publisher_id', publisher.id).count('* as n')
    assert.deepEqual(after, before)
  })

  test("another publisher's form answers 404; lists hold only one's own", async ({
    client,
    assert,
  }) => {
    const mine = await livePublisher()
    const theirs = await livePublisher()
    const form = await createForm(theirs.publisher)
    const own = await createForm(mine.publisher)

    ;(await client.get(`/v1/forms/${form.id}`).bearerToken(mine.key)).assertStatus(404)
    ;(
      await client.patch(`/v1/forms/${form.id}`).bearerToken(mine.key).json({ active: false })
    ).assertStatus(404)
    const list = await client.get('/v1/forms').bearerToken(mine.key)
    assert.deepEqual(
      list.body().data.map((item: any) => item.id),
      [own.id]
    )
    const stored = await Form.findOrFail(form.id)
    assert.isTrue(stored.active)

    // Making one for another publisher is refused, not quietly redirected.
    const foreign = await client
      .post('/v1/forms')
      .bearerToken(mine.key)
      .json(formBody({ publisher_id: theirs.publisher.id }))
    foreign.assertStatus(403)
    assert.equal(foreign.body().code, 'publisher_mismatch')
  })

  test('the operator makes forms for a publisher it names; buyers, sandbox and read-only keys may not change them', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const operator = await operatorKey()

    const unnamed = await client.post('/v1/forms').bearerToken(operator).json(formBody())
    unnamed.assertStatus(422)
    assert.equal(unnamed.body().errors[0].field, 'publisher_id')

    const made = await client
      .post('/v1/forms')
      .bearerToken(operator)
      .json(formBody({ publisher_id: publisher.id }))
    made.assertStatus(201)
    const list = await client.get(`/v1/forms?publisher_id=${publisher.id}`).bearerToken(operator)
    assert.deepEqual(
      list.body().data.map((item: any) => item.id),
      [made.body().id]
    )

    const buyer = await createBuyer()
    const { secret: buyerKey } = await createKey({ buyerId: buyer.id })
    ;(await client.get('/v1/forms').bearerToken(buyerKey)).assertStatus(403)
    const { secret: sandbox } = await createKey({
      publisherId: publisher.id,
      environment: 'sandbox',
    })
    ;(
      await client.patch(`/v1/forms/${made.body().id}`).bearerToken(sandbox).json({ active: false })
    ).assertStatus(403)
    const { secret: reader } = await createKey({ publisherId: publisher.id, permissions: ['read'] })
    ;(await client.get(`/v1/forms/${made.body().id}`).bearerToken(reader)).assertStatus(200)
    ;(await client.post('/v1/forms').bearerToken(reader).json(formBody())).assertStatus(403)
  })

  test('choosing forms as a delivery method sets up an inactive starter form, once', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const { secret } = await createKey({ publisherId: publisher.id })
    for (let time = 0; time < 2; time++) {
      const response = await client
        .patch(`/v1/publishers/${publisher.id}`)
        .bearerToken(secret)
        .json({ delivery_methods: ['form', 'upload'] })
      response.assertStatus(200)
    }
    const forms = await Form.query().where('publisher_id', publisher.id).preload('consentVersion')
    assert.lengthOf(forms, 1)
    assert.isFalse(forms[0].active)
    assert.deepEqual(
      forms[0].fields.map((field) => field.name),
      ['name', 'email', 'phone', 'postal_code']
    )
    assert.include(forms[0].consentVersion.text, publisher.name)
  })

  test('intake refuses a route the publisher has not enabled, with a problem that says how to enable it', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    publisher.deliveryMethods = ['form']
    await publisher.save()
    const { leadBody } = await import('#tests/support/fixtures')
    const response = await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    response.assertStatus(403)
    assert.equal(response.body().code, 'delivery_method_not_enabled')
    assert.include(response.body().detail, 'delivery_methods')
    const facts = await db.from('lead_facts').where('publisher_id', publisher.id)
    assert.lengthOf(facts, 0)
  })
})
