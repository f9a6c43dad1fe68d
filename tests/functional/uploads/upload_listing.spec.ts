import { test } from '@japa/runner'
import { startUploadWorker } from '#services/uploads/upload_worker'
import { createKey, operatorKey } from '#tests/support/fixtures'
import { answerChecker } from '#tests/support/openapi_schemas'
import {
  csvOf,
  upload,
  uploadIn,
  uploadingPublisher,
  validRow,
} from '#tests/functional/uploads/upload_support'

let stopWorker: (() => Promise<void>) | undefined

async function list(client: any, key: string, query: Record<string, string | number> = {}) {
  return client.get('/v1/uploads').bearerToken(key).qs(query)
}

/** Every page of the list, following next_cursor; the ids in the order they came. */
async function allIds(
  client: any,
  key: string,
  query: Record<string, string | number> = {},
  limit = 1
) {
  const ids: string[] = []
  let cursor: string | null = null
  do {
    const page: any = (
      await list(client, key, { ...query, limit, ...(cursor ? { cursor } : {}) })
    ).body()
    ids.push(...page.data.map((item: any) => item.id))
    cursor = page.next_cursor
  } while (cursor)
  return ids
}

test.group('Uploads / the list', (group) => {
  group.setup(async () => {
    stopWorker = await startUploadWorker({ sweep: false })
    return () => stopWorker?.()
  })

  test('a publisher lists its own uploads, newest first, a page at a time, by status', async ({
    client,
    assert,
  }) => {
    const checkAnswer = answerChecker((await client.get('/v1/openapi.json')).body())
    const { publisher, key } = await uploadingPublisher()
    const first = (await upload(client, key, csvOf([validRow()]), { filename: 'first.csv' })).body()
    const second = (
      await upload(client, key, csvOf([validRow(), validRow()]), { filename: 'second.csv' })
    ).body()
    await uploadIn(client, key, first.id, 'validated')
    await uploadIn(client, key, second.id, 'validated')
    ;(await client.post(`/v1/uploads/${first.id}/accept`).bearerToken(key).json({})).assertStatus(
      202
    )
    await uploadIn(client, key, first.id, 'accepted')

    const answer = await list(client, key)
    answer.assertStatus(200)
    checkAnswer(answer, 'GET', '/v1/uploads')
    assert.deepEqual(
      answer.body().data.map((item: any) => item.id),
      [second.id, first.id]
    )
    const [newest] = answer.body().data
    assert.equal(newest.filename, 'second.csv')
    assert.equal(newest.publisher, publisher.slug)
    assert.equal(newest.rows, 2)
    assert.deepEqual(newest.counts, { accepted: 2, flagged: 0, rejected: 0 })
    assert.isNull(answer.body().next_cursor)

    // One at a time: every upload once, in the same order.
    assert.deepEqual(await allIds(client, key), [second.id, first.id])

    const accepted = await list(client, key, { status: 'accepted' })
    assert.deepEqual(
      accepted.body().data.map((item: any) => item.id),
      [first.id]
    )
    assert.equal(accepted.body().data[0].leads_created, 1)
    assert.deepEqual((await list(client, key, { status: 'accepting' })).body().data, [])
  }).timeout(60_000)

  test("another publisher's uploads are never listed, nor those of the other environment", async ({
    client,
    assert,
  }) => {
    const a = await uploadingPublisher()
    const b = await uploadingPublisher()
    const ownId = (await upload(client, a.key, csvOf([validRow()]))).body().id
    const otherId = (await upload(client, b.key, csvOf([validRow()]))).body().id
    const sandboxKey = (await createKey({ publisherId: a.publisher.id, environment: 'sandbox' }))
      .secret
    const sandboxId = (await upload(client, sandboxKey, csvOf([validRow()]))).body().id

    assert.deepEqual(await allIds(client, a.key), [ownId])
    assert.deepEqual(await allIds(client, b.key), [otherId])
    assert.deepEqual(await allIds(client, sandboxKey), [sandboxId])
    // Naming another publisher narrows a publisher's list to nothing; it never widens it.
    assert.deepEqual(await allIds(client, a.key, { publisher_id: b.publisher.id }), [])
    assert.deepEqual(await allIds(client, a.key, { publisher_id: a.publisher.id }), [ownId])
    // A read-only key reads the list too.
    const reader = (await createKey({ publisherId: a.publisher.id, permissions: ['read'] })).secret
    assert.deepEqual(await allIds(client, reader), [ownId])

    // The operator sees every publisher's, and one publisher's when it asks.
    const operator = await operatorKey()
    const everyone = await allIds(client, operator, {}, 200)
    assert.includeMembers(everyone, [ownId, otherId])
    assert.notInclude(everyone, sandboxId)
    assert.deepEqual(await allIds(client, operator, { publisher_id: b.publisher.id }), [otherId])
    // Newest first across the publishers' schemas too.
    assert.isBelow(everyone.indexOf(otherId), everyone.indexOf(ownId))
  }).timeout(60_000)

  test('a filter or cursor that is not one answers 422', async ({ client }) => {
    const { key } = await uploadingPublisher()
    ;(await list(client, key, { status: 'done' })).assertStatus(422)
    ;(await list(client, key, { cursor: 'not-a-cursor' })).assertStatus(422)
    ;(await list(client, key, { publisher_id: 'acme' })).assertStatus(422)
    ;(await list(client, key, { limit: 0 })).assertStatus(422)
  })
})
