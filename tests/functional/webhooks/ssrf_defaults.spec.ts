import { test } from '@japa/runner'
import { operatorKey } from '#tests/support/fixtures'
import { startAppProcess } from '#tests/support/app_process'
import { freePort } from '#tests/support/webhooks'

test.group('Webhooks / which URLs are allowed, by default', () => {
  test('a development server allows no loopback receiver unless the configuration names it', async ({
    assert,
    cleanup,
  }) => {
    const key = await operatorKey()
    const started = await startAppProcess({
      NODE_ENV: 'development',
      WEBHOOK_ALLOW_PRIVATE: undefined,
    })
    cleanup(() => started.stop())
    // A local service a tenant must not read through the delivery log: this machine's Postgres, say.
    for (const url of [`http://127.0.0.1:${await freePort()}/hooks`, 'http://[::1]:5432/']) {
      const answer = await fetch(`${started.base}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: { 'authorization': `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['lead.received'] }),
      })
      assert.equal(answer.status, 422, started.log)
      const problem = (await answer.json()) as { errors: { field: string; code: string }[] }
      assert.deepEqual(
        problem.errors.map((error) => [error.field, error.code]),
        [['url', 'forbidden_address']]
      )
    }
  }).timeout(120_000)
})
