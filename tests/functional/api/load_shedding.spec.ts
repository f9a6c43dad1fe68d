import { test } from '@japa/runner'
import { apiLoad } from '#config/limiter'
import { operatorKey } from '#tests/support/fixtures'

test.group('Overload / shedding past the in-flight limit', (group) => {
  const configured = apiLoad.maxInFlight
  group.each.teardown(() => {
    apiLoad.maxInFlight = configured
  })

  test('past the limit the server answers 503 overloaded with Retry-After at once', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    apiLoad.maxInFlight = 2
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        client.get('/v1/audit-logs').qs({ format: 'json' }).bearerToken(key)
      )
    )
    const shed = answers.filter((answer) => answer.status() === 503)
    const served = answers.filter((answer) => answer.status() === 200)
    assert.isAbove(shed.length, 0)
    assert.isAbove(served.length, 0)
    assert.equal(shed.length + served.length, answers.length)
    for (const answer of shed) {
      assert.equal(answer.header('retry-after'), '1')
      assert.equal(answer.header('content-type'), 'application/problem+json; charset=utf-8')
      assert.equal(answer.body().code, 'overloaded')
    }

    // Below the limit again, everything is served.
    apiLoad.maxInFlight = configured
    ;(await client.get('/v1/labels').bearerToken(key)).assertStatus(200)
  })
})
