import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { PluginRegistry } from '#services/plugins/plugin_registry'
import { createKey, createLabel, operatorKey } from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

const PLUGIN_NAME = 'crm-hubspot'

test.group('Plugins / runtime', () => {
  test('discovery loads the adapters and skips a broken one without failing', async ({
    assert,
    cleanup,
  }) => {
    const root = await mkdtemp(join(tmpdir(), 'plugins-'))
    cleanup(() => rm(root, { recursive: true, force: true }))
    const write = async (folder: string, source: string) => {
      await mkdir(join(root, folder))
      await writeFile(join(root, folder, 'index.js'), source)
    }
    await write(
      'good-one',
      `export default { manifest: { name: 'good-one', version: '1.0.0', kind: 'other', description: 'x', events: ['lead.received'], settings: {} }, async handle() {} }`
    )
    await write('throws-on-load', `throw new Error('boom at import')`)
    await write(
      'wrong-name',
      `export default { manifest: { name: 'another', version: '1', kind: 'other', description: 'x', events: ['lead.received'], settings: {} }, async handle() {} }`
    )
    await write('no-handle', `export default { manifest: { name: 'no-handle' } }`)

    const registry = new PluginRegistry()
    const reported: string[] = []
    await registry.discover(root, (broken) => reported.push(broken.folder))
    assert.deepEqual(
      registry.list().map((manifest) => manifest.name),
      ['good-one']
    )
    assert.sameMembers(reported, ['throws-on-load', 'wrong-name', 'no-handle'])
    assert.match(registry.broken.find((b) => b.folder === 'throws-on-load')!.error, /boom/)

    // The application's own registry found the adapters shipped in plugins/.
    const booted = await app.container.make(PluginRegistry)
    assert.include(
      booted.list().map((manifest) => manifest.name),
      PLUGIN_NAME
    )
  })

  test('the operator lists plugins; publishers and buyers may not', async ({ client, assert }) => {
    const operator = await operatorKey()
    const listed = await client.get('/v1/plugins').bearerToken(operator)
    listed.assertStatus(200)
    const hubspot = listed.body().data.find((m: any) => m.name === PLUGIN_NAME)
    assert.containsSubset(hubspot, {
      kind: 'crm',
      events: ['lead.received', 'lead.reviewed', 'match.found'],
    })
    assert.isTrue(hubspot.settings.access_token.secret)

    const { secret: publisherKey } = await createKey({
      publisherId: (await (await import('#tests/support/fixtures')).createPublisher()).id,
    })
    const refused = await client.get('/v1/plugins').bearerToken(publisherKey)
    refused.assertStatus(403)
  })

  test('enable, read, change and remove an installation; secrets encrypted and never returned', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const label = await createLabel()
    const base = `/v1/labels/${label.id}/plugins`

    const created = await client
      .post(base)
      .bearerToken(operator)
      .json({
        plugin: PLUGIN_NAME,
        settings: { access_token: 'pat-na1-secret-token', api_base: 'http://127.0.0.1:9' },
      })
    created.assertStatus(201)
    const body = created.body()
    assert.containsSubset(body, {
      plugin: PLUGIN_NAME,
      label_id: label.id,
      status: 'enabled',
      environment: 'live',
      events: ['lead.received'],
      secrets_set: ['access_token'],
      settings: { api_base: 'http://127.0.0.1:9' },
    })
    assert.notInclude(created.text(), 'pat-na1-secret-token')
    const row = await db.from('plugin_installations').where('id', body.id).first()
    assert.notInclude(row.secrets, 'pat-na1-secret-token')
    assert.notInclude(JSON.stringify(row.settings), 'pat-na1-secret-token')
    const endpoint = await db.from('webhook_endpoints').where('id', row.endpoint_id).first()
    assert.containsSubset(endpoint, {
      plugin: PLUGIN_NAME,
      label_id: label.id,
      owner_type: 'operator',
    })

    const listed = await client.get(base).bearerToken(operator)
    assert.deepEqual(
      listed.body().data.map((item: any) => item.plugin),
      [PLUGIN_NAME]
    )
    assert.notInclude(listed.text(), 'pat-na1-secret-token')

    const patched = await client
      .patch(`${base}/${PLUGIN_NAME}`)
      .bearerToken(operator)
      .json({
        events: ['lead.received', 'match.found'],
        settings: { field_mapping: { email: 'contact.email' } },
        enabled: false,
      })
    patched.assertStatus(200)
    assert.containsSubset(patched.body(), {
      status: 'disabled',
      events: ['lead.received', 'match.found'],
      secrets_set: ['access_token'],
      settings: { field_mapping: { email: 'contact.email' } },
    })

    const duplicate = await client
      .post(base)
      .bearerToken(operator)
      .json({ plugin: PLUGIN_NAME, settings: { access_token: 'x' } })
    duplicate.assertStatus(409)

    const removed = await client.delete(`${base}/${PLUGIN_NAME}`).bearerToken(operator)
    removed.assertStatus(204)
    ;(await client.get(`${base}/${PLUGIN_NAME}`).bearerToken(operator)).assertStatus(404)
    assert.isNull(await db.from('webhook_endpoints').where('id', row.endpoint_id).first())
    const log = await db
      .from('access_log')
      .where('subject_id', body.id)
      .orderBy('created_at')
      .select('action', 'actor')
    assert.deepEqual(
      log.map((entry) => entry.action),
      ['plugin.installed', 'plugin.updated', 'plugin.removed']
    )
  })

  test('bad settings, events or plugin answer 422 and change nothing', async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const label = await createLabel()
    const base = `/v1/labels/${label.id}/plugins`
    const before = await snapshotDatabase()
    const cases = [
      { plugin: PLUGIN_NAME, settings: {} },
      { plugin: PLUGIN_NAME, settings: { access_token: 'x', api_base: 'not a url' } },
      { plugin: PLUGIN_NAME, settings: { access_token: 'x', nonsense: 1 } },
      { plugin: PLUGIN_NAME, settings: { access_token: 'x', field_mapping: 'email' } },
      { plugin: PLUGIN_NAME, events: ['payout.processed'], settings: { access_token: 'x' } },
      // No event: only an inbound-only plugin (calls-callrail) subscribes to none.
      { plugin: PLUGIN_NAME, events: [], settings: { access_token: 'x' } },
      { plugin: 'calls-callrail', events: ['call.attached'], settings: { signing_key: 'x' } },
      { plugin: 'calls-callrail', settings: {} },
      { plugin: 'no-such-plugin', settings: {} },
      { plugin: 'Not A Name' },
      { settings: {} },
    ]
    for (const json of cases) {
      const response = await client.post(base).bearerToken(operator).json(json)
      assert.equal(response.status(), 422, JSON.stringify(json))
      assert.equal(response.header('content-type'), 'application/problem+json; charset=utf-8')
    }
    ;(
      await client
        .post(`/v1/labels/00000000-0000-4000-8000-000000000000/plugins`)
        .bearerToken(operator)
        .json({ plugin: PLUGIN_NAME, settings: { access_token: 'x' } })
    ).assertStatus(404)
    ;(await client.get(`${base}/NOT..valid`).bearerToken(operator)).assertStatus(404)
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
  })
})

test.group('Plugins / who reaches them', () => {
  test("a label's plugins do not exist for a publisher or a buyer, and they change nothing", async ({
    client,
    assert,
  }) => {
    const operator = await operatorKey()
    const label = await createLabel()
    const base = `/v1/labels/${label.id}/plugins`
    await client
      .post(base)
      .bearerToken(operator)
      .json({
        plugin: PLUGIN_NAME,
        settings: { access_token: 'x', api_base: 'http://127.0.0.1:9' },
      })
    const { createBuyer, createPublisher } = await import('#tests/support/fixtures')
    const { secret: publisherKey } = await createKey({ publisherId: (await createPublisher()).id })
    const { secret: buyerKey } = await createKey({ buyerId: (await createBuyer()).id })
    const before = await snapshotDatabase()
    for (const key of [publisherKey, buyerKey]) {
      const calls = [
        client.get(base).bearerToken(key),
        client
          .post(base)
          .bearerToken(key)
          .json({ plugin: PLUGIN_NAME, settings: { access_token: 'y' } }),
        client.get(`${base}/${PLUGIN_NAME}`).bearerToken(key),
        client.patch(`${base}/${PLUGIN_NAME}`).bearerToken(key).json({ enabled: false }),
        client.delete(`${base}/${PLUGIN_NAME}`).bearerToken(key),
        client.get(`${base}/${PLUGIN_NAME}/deliveries`).bearerToken(key),
        client.post(`${base}/${PLUGIN_NAME}/test`).bearerToken(key),
      ]
      for (const response of await Promise.all(calls)) {
        assert.equal(response.status(), 404, response.text())
        assert.equal(response.body().code, 'not_found')
      }
    }
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
  })
})

test.group('Plugins / sandbox', () => {
  test('a sandbox key keeps its own installation, apart from the live one', async ({
    client,
    assert,
  }) => {
    const live = await operatorKey()
    const { secret: sandbox } = await createKey({ environment: 'sandbox' })
    const label = await createLabel()
    const base = `/v1/labels/${label.id}/plugins`
    const made = await client
      .post(base)
      .bearerToken(sandbox)
      .json({ plugin: PLUGIN_NAME, settings: { access_token: 'sandbox-token' } })
    made.assertStatus(201)
    assert.equal(made.body().environment, 'sandbox')
    assert.deepEqual((await client.get(base).bearerToken(live)).body().data, [])
    ;(
      await client
        .post(base)
        .bearerToken(live)
        .json({ plugin: PLUGIN_NAME, settings: { access_token: 'live-token' } })
    ).assertStatus(201)
    const sandboxes = (await client.get(base).bearerToken(sandbox)).body().data
    assert.deepEqual(
      sandboxes.map((item: any) => item.environment),
      ['sandbox']
    )
  })
})
