import { test } from '@japa/runner'
import Publisher from '#models/publisher'
import { acceptanceRate, countsByPublisher } from '#services/leads/lead_counts'
import {
  createKey,
  createLabel,
  createPublisher,
  leadBody,
  livePublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

/** Publishers whose names share a marker, so a search finds exactly this test's. */
async function named(marker: string, names: string[]) {
  const publishers = []
  for (const name of names) {
    const publisher = await createPublisher()
    publisher.name = `${name} ${marker}`
    await publisher.save()
    publishers.push(publisher)
  }
  return publishers
}

test.group('Publishers list / search and sort', () => {
  test('search finds part of the name or the slug, in any case; % and _ match only themselves', async ({
    client,
    assert,
  }) => {
    const marker = unique('m')
    const [alpha] = await named(marker, ['Alpha 100%'])
    await named(marker, ['Beta'])
    const key = await operatorKey()
    const search = async (text: string) => {
      const response = await client.get('/v1/publishers').qs({ search: text }).bearerToken(key)
      response.assertStatus(200)
      return response.body().data.map((row: any) => row.id)
    }

    assert.lengthOf(await search(marker.toUpperCase()), 2)
    assert.deepEqual(await search(`ALPHA 100% ${marker}`), [alpha.id])
    assert.deepEqual(await search(alpha.slug), [alpha.id])
    assert.deepEqual(await search(`alpha 1_0% ${marker}`), [])
    assert.deepEqual(await search(`%${marker}`), [])
  })

  test('by name, A to Z or Z to A, pages without skipping or repeating equal names', async ({
    client,
    assert,
  }) => {
    const marker = unique('m')
    const created = await named(marker, ['Delta', 'alpha', 'Charlie', 'Bravo', 'Bravo', 'Echo'])
    const key = await operatorKey()

    const walk = async (order?: 'asc' | 'desc') => {
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const response = await client
          .get('/v1/publishers')
          .qs({
            search: marker,
            sort: 'name',
            limit: 2,
            ...(order ? { order } : {}),
            ...(cursor ? { cursor } : {}),
          })
          .bearerToken(key)
        response.assertStatus(200)
        seen.push(...response.body().data.map((row: any) => row.id))
        cursor = response.body().next_cursor ?? undefined
      } while (cursor)
      return seen
    }

    const ascending = await walk()
    assert.sameMembers(
      ascending,
      created.map((publisher) => publisher.id)
    )
    assert.lengthOf(new Set(ascending), created.length)
    const names = await Promise.all(
      ascending.map(async (id) => (await Publisher.findOrFail(id)).name)
    )
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b, 'en'))
    )
    assert.deepEqual(await walk('desc'), [...ascending].reverse())
  })

  test('by creation, newest first by default, oldest first with order=asc', async ({
    client,
    assert,
  }) => {
    const marker = unique('m')
    const created = await named(marker, ['One', 'Two', 'Three'])
    const key = await operatorKey()
    const ids = async (qs: Record<string, string>) =>
      (
        await client
          .get('/v1/publishers')
          .qs({ search: marker, ...qs })
          .bearerToken(key)
      )
        .body()
        .data.map((row: any) => row.id)

    assert.deepEqual(await ids({}), created.map((publisher) => publisher.id).reverse())
    assert.deepEqual(
      await ids({ sort: 'created', order: 'asc' }),
      created.map((publisher) => publisher.id)
    )
  })

  test('an unknown sort, a malformed cursor or a long search answer 422', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    for (const [qs, field] of [
      [{ sort: 'price' }, 'sort'],
      [{ order: 'sideways' }, 'order'],
      [{ sort: 'name', cursor: 'not-a-cursor' }, 'cursor'],
      [{ search: 'x'.repeat(101) }, 'search'],
    ] as const) {
      const response = await client.get('/v1/publishers').qs(qs).bearerToken(key)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, field)
    }
  })
})

test.group('Publishers list / figures of the day', () => {
  test('live leads today, accepted of decided and flagged waiting, per publisher in one go', async ({
    client,
    assert,
  }) => {
    const rules = { email: { action: 'flag' }, phone: { action: 'reject' } }
    const { publisher, key } = await livePublisher(rules)
    const quiet = await createPublisher({ label: (await createLabel()).slug })
    const sandbox = (await createKey({ publisherId: publisher.id, environment: 'sandbox' })).secret

    const send = async (bearer: string, overrides: Record<string, any>) =>
      client.post('/v1/leads').bearerToken(bearer).json(leadBody(publisher.slug, overrides))
    ;(await send(key, {})).assertStatus(201)
    ;(await send(key, {})).assertStatus(201)
    ;(await send(key, { contact: { phone: '12' } })).assertStatus(422)
    ;(await send(key, { contact: { email: 'broken' } })).assertStatus(201)
    ;(await send(sandbox, {})).assertStatus(201)

    // The sandbox test lead is no delivery: it is not counted.
    const counts = await countsByPublisher([publisher.id, quiet.id])
    assert.deepEqual(counts.get(publisher.id), {
      today: 4,
      accepted_today: 2,
      rejected_today: 1,
      flagged_waiting: 1,
    })
    assert.deepEqual(counts.get(quiet.id), {
      today: 0,
      accepted_today: 0,
      rejected_today: 0,
      flagged_waiting: 0,
    })
    assert.equal(acceptanceRate(counts.get(publisher.id)!), 2 / 3)
    assert.isNull(acceptanceRate(counts.get(quiet.id)!))
  })
})
