import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import Label from '#models/label'
import AccessLogEntry from '#models/access_log_entry'
import LabelService from '#services/catalogue/label_service'
import {
  createBuyer,
  createKey,
  createLabel,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'
import { databaseState } from '#tests/support/database_state'

/** A host no other test uses: the column is unique across the whole database. */
const freshHost = () => `${unique('leads')}.acme.example`

function stateOf(...ids: string[]) {
  return databaseState(
    ['access_log'],
    ids.map((id) => ({ table: 'labels', id }))
  )
}

test.group('Labels / update', () => {
  test('the operator renames, merges branding and sets a custom host; stored, logged, shown', async ({
    client,
    assert,
  }) => {
    const label = await Label.create({
      slug: unique('brand'),
      name: 'Brand',
      branding: { logo_url: 'https://cdn.example/a.svg', primary_color: '#112233' },
    })
    const key = await operatorKey()
    const host = freshHost()

    const response = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({
        name: 'Brand Renamed',
        branding: { primary_color: '#ABCDEF' },
        custom_host: `${host.toUpperCase()}.`,
      })
    response.assertStatus(200)
    assert.containSubset(response.body(), {
      id: label.id,
      name: 'Brand Renamed',
      branding: { logo_url: 'https://cdn.example/a.svg', primary_color: '#abcdef' },
      custom_host: host,
    })

    await label.refresh()
    assert.equal(label.name, 'Brand Renamed')
    assert.equal(label.customHost, host)
    const [entry] = await AccessLogEntry.query()
      .where('subject_id', label.id)
      .where('action', 'label.updated')
    assert.match(entry.actor, /^api_key:/)
    assert.deepEqual(entry.details, {
      fields: ['name', 'branding', 'custom_host'],
      custom_host: host,
    })

    // null removes a branding entry and frees the host.
    const cleared = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({ branding: { logo_url: null }, custom_host: null })
    cleared.assertStatus(200)
    assert.deepEqual(cleared.body().branding, { primary_color: '#abcdef' })
    assert.isNull(cleared.body().custom_host)
    const shown = await client.get(`/v1/labels/${label.id}`).bearerToken(key)
    assert.deepEqual(shown.body(), cleared.body())
  })

  test('labelForHost finds the label by the Host a request arrived on, in any spelling', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const host = freshHost()
    await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(await operatorKey())
      .json({ custom_host: host })
    const labels = await app.container.make(LabelService)

    for (const header of [host, host.toUpperCase(), `${host}:443`, `${host}.`]) {
      assert.equal((await labels.labelForHost(header))?.id, label.id, header)
    }
    for (const header of [undefined, null, '', 'other.example', '[::1]:80', 'a b', '%%%']) {
      assert.isNull(await labels.labelForHost(header), String(header))
    }

    // A name in another script is kept in the punycode a Host header carries.
    const idn = await createLabel()
    const own = `${unique('bücher')}.example`
    const stored = await client
      .patch(`/v1/labels/${idn.id}`)
      .bearerToken(await operatorKey())
      .json({ custom_host: own })
    stored.assertStatus(200)
    assert.match(stored.body().custom_host, /^xn--/)
    assert.equal((await labels.labelForHost(stored.body().custom_host))?.id, idn.id)
  })

  test('a host another label uses answers 409 host_taken, also when two ask at once', async ({
    client,
    assert,
  }) => {
    const [first, second, third] = [await createLabel(), await createLabel(), await createLabel()]
    const key = await operatorKey()
    const host = freshHost()
    ;(
      await client.patch(`/v1/labels/${first.id}`).bearerToken(key).json({ custom_host: host })
    ).assertStatus(200)
    // The label that holds it may send it again.
    ;(
      await client.patch(`/v1/labels/${first.id}`).bearerToken(key).json({ custom_host: host })
    ).assertStatus(200)

    const before = await stateOf(first.id, second.id)
    const taken = await client
      .patch(`/v1/labels/${second.id}`)
      .bearerToken(key)
      .json({ name: 'Thief', custom_host: host.toUpperCase() })
    taken.assertStatus(409)
    assert.equal(taken.body().code, 'host_taken')
    assert.deepEqual(await stateOf(first.id, second.id), before)

    const contested = freshHost()
    const answers = await Promise.all(
      [second, third].map((label) =>
        client.patch(`/v1/labels/${label.id}`).bearerToken(key).json({ custom_host: contested })
      )
    )
    assert.sameMembers(
      answers.map((answer) => answer.status()),
      [200, 409]
    )
    assert.equal(answers.find((answer) => answer.status() === 409)!.body().code, 'host_taken')
    const holders = await Label.query().where('custom_host', contested)
    assert.lengthOf(holders, 1)
  })

  test('bad names, branding and hosts answer 422 per field and change nothing', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const key = await operatorKey()
    const before = await stateOf(label.id)
    for (const [body, field, code] of [
      [{ name: '' }, 'name', 'minLength'],
      [{ branding: { logo_url: 'http://cdn.example/a.svg' } }, 'branding.logo_url', 'url'],
      [{ branding: { primary_color: 'red' } }, 'branding.primary_color', 'regex'],
      [{ branding: { font: 'Arial' } }, 'branding.font', 'unknown_field'],
      [{ branding: 'blue' }, 'branding', 'object'],
      [{ custom_host: 'https://leads.acme.example' }, 'custom_host', 'hostname'],
      [{ custom_host: 'leads.acme.example:8443' }, 'custom_host', 'hostname'],
      [{ custom_host: 'leads.acme.example/login' }, 'custom_host', 'hostname'],
      [{ custom_host: '203.0.113.9' }, 'custom_host', 'hostname'],
      [{ custom_host: 'localhost' }, 'custom_host', 'hostname'],
      [{ custom_host: 'under_score.example' }, 'custom_host', 'hostname'],
      [{ custom_host: '-leads.acme.example' }, 'custom_host', 'hostname'],
      [{ custom_host: 'leads..acme.example' }, 'custom_host', 'hostname'],
      [{ custom_host: 'leads.acme.123' }, 'custom_host', 'hostname'],
      [{ custom_host: 42 }, 'custom_host', 'string'],
      [{ slug: 'new-slug' }, 'slug', 'unknown_field'],
    ] as const) {
      const response = await client.patch(`/v1/labels/${label.id}`).bearerToken(key).json(body)
      response.assertStatus(422)
      assert.deepInclude(
        response.body().errors.map((error: any) => [error.field, error.code]),
        [field, code],
        JSON.stringify(body)
      )
    }
    assert.deepEqual(await stateOf(label.id), before)
  })

  test('publishers and buyers get 404; sandbox and read-only operator keys 403', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const publisherKey = (await createKey({ publisherId: (await createPublisher()).id })).secret
    const buyerKey = (await createKey({ buyerId: (await createBuyer()).id })).secret
    const sandbox = (await createKey({ environment: 'sandbox' })).secret
    const readOnly = (await createKey({ permissions: ['read'] })).secret
    const before = await stateOf(label.id)
    const body = { name: 'Taken over', custom_host: freshHost() }

    for (const secret of [publisherKey, buyerKey]) {
      const response = await client.patch(`/v1/labels/${label.id}`).bearerToken(secret).json(body)
      response.assertStatus(404)
    }
    for (const [secret, code] of [
      [sandbox, 'environment_not_allowed'],
      [readOnly, 'permission_missing'],
    ]) {
      const response = await client.patch(`/v1/labels/${label.id}`).bearerToken(secret).json(body)
      response.assertStatus(403)
      assert.equal(response.body().code, code)
    }
    assert.deepEqual(await stateOf(label.id), before)
  })
})
