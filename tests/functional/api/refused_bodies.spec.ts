import { readdir, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { createKey, createPublisher, operatorKey } from '#tests/support/fixtures'

const MARKER = 'leadgate-refused-upload-marker'

/** Files in the temp folder changed since `since` whose contents carry the marker. */
async function parkedUploads(since: number) {
  const found: string[] = []
  for (const name of await readdir(tmpdir())) {
    const path = join(tmpdir(), name)
    const info = await stat(path).catch(() => null)
    if (!info?.isFile() || info.mtimeMs < since || info.size > 1_000_000) continue
    const contents = await readFile(path, 'utf8').catch(() => '')
    if (contents.includes(MARKER)) found.push(path)
  }
  return found
}

test.group('Bad input / bodies no route takes', () => {
  test('a multipart body is refused with 415 before parsing, on the API and the portal', async ({
    client,
    assert,
  }) => {
    const since = Date.now() - 1000
    const key = await operatorKey()
    const publisher = await createPublisher()
    const { apiKey } = await createKey({ publisherId: publisher.id })
    const file = Buffer.from(`${MARKER}\n`.repeat(2000))

    const apiDelete = await client
      .delete(`/v1/api-keys/${apiKey.id}`)
      .bearerToken(key)
      .file('file', file, { filename: 'leads.csv' })
    apiDelete.assertStatus(415)
    assert.equal(apiDelete.header('content-type'), 'application/problem+json; charset=utf-8')
    assert.equal(apiDelete.body().code, 'unsupported_media_type')

    // Before authentication too: no key at all still gets the 415, not a parsed upload.
    const anonymous = await client.post('/v1/leads').file('file', file, { filename: 'leads.csv' })
    anonymous.assertStatus(415)

    const login = await client
      .post('/login')
      .file('file', file, { filename: 'leads.csv' })
      .field('email', 'nobody@example.com')
    login.assertStatus(415)

    assert.deepEqual(await parkedUploads(since), [])
    await apiKey.refresh()
    assert.isNull(apiKey.revokedAt)
  })

  test('a write with a query string answers 400 query_not_allowed and changes nothing', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const publisher = await createPublisher()
    const { apiKey } = await createKey({ publisherId: publisher.id })

    const revoke = await client.delete(`/v1/api-keys/${apiKey.id}?reason=x`).bearerToken(key)
    revoke.assertStatus(400)
    assert.equal(revoke.body().code, 'query_not_allowed')
    await apiKey.refresh()
    assert.isNull(apiKey.revokedAt)

    const rename = await client
      .patch(`/v1/publishers/${publisher.id}?name=Renamed`)
      .bearerToken(key)
      .json({})
    rename.assertStatus(400)
    await publisher.refresh()
    assert.notEqual(publisher.name, 'Renamed')
  })
})
