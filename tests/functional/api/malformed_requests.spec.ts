import { request } from 'node:http'
import { test } from '@japa/runner'
import { operatorKey } from '#tests/support/fixtures'

const PROBLEM = 'application/problem+json; charset=utf-8'

/** A raw request, for what a well-behaved client library would refuse to send. */
function raw(options: {
  path: string
  method?: string
  headers?: Record<string, string>
  body?: string
}) {
  return new Promise<{ status: number; type: string | undefined; body: string }>(
    (resolve, reject) => {
      const sent = request(
        {
          host: process.env.HOST ?? 'localhost',
          port: Number(process.env.PORT ?? 3334),
          path: options.path,
          method: options.method ?? 'GET',
          headers: options.headers,
        },
        (answer) => {
          let body = ''
          answer.setEncoding('utf8')
          answer.on('data', (chunk) => (body += chunk))
          answer.on('end', () =>
            resolve({ status: answer.statusCode!, type: answer.headers['content-type'], body })
          )
        }
      )
      sent.on('error', reject)
      sent.end(options.body)
    }
  )
}

test.group('Bad input / no request produces a 500 or an empty error', () => {
  test('headers over 16 KB answer 431 as a problem document', async ({ assert }) => {
    const answer = await raw({ path: '/v1/leads', headers: { 'x-padding': 'a'.repeat(20_000) } })
    assert.equal(answer.status, 431)
    assert.equal(answer.type, PROBLEM)
    assert.equal(JSON.parse(answer.body).code, 'headers_too_large')
  })

  test('a Content-Encoding the body does not have answers 400, with or without a key', async ({
    assert,
  }) => {
    const key = await operatorKey()
    for (const headers of [{}, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        for (const path of ['/v1/labels', '/v1/oauth/token', '/mcp']) {
          const answer = await raw({
            path,
            method: 'POST',
            headers: {
              ...headers,
              'content-type': 'application/json',
              'content-encoding': encoding,
            },
            body: '{"slug":"not-encoded","name":"Plain"}',
          })
          assert.equal(answer.status, 400, `${encoding} ${path}: ${answer.body}`)
          assert.equal(answer.type, PROBLEM)
          assert.equal(JSON.parse(answer.body).code, 'malformed_body')
        }
      }
    }
  })

  test('malformed percent escapes answer 4xx as a problem document', async ({ assert }) => {
    const key = await operatorKey()
    const malformedPath = await raw({
      path: '/v1/leads/%E0%A4%A',
      headers: { authorization: `Bearer ${key}` },
    })
    assert.equal(malformedPath.status, 400, malformedPath.body)
    assert.equal(malformedPath.type, PROBLEM)
    assert.equal(JSON.parse(malformedPath.body).code, 'malformed_url')
    // A stray % in a query string is read as itself and refused by the field's validator.
    for (const path of ['/v1/leads?status=%', '/v1/labels?cursor=%zz']) {
      const answer = await raw({ path, headers: { authorization: `Bearer ${key}` } })
      assert.oneOf(answer.status, [400, 422], `${path}: ${answer.body}`)
      assert.equal(answer.type, PROBLEM, path)
    }
  })

  test('an export period outside the years 0001–9999 answers 422, not 500', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    for (const qs of [
      { format: 'csv', from: '0000-01-01' },
      { format: 'csv', to: '9999-12-31T23:59:59-14:00' },
      { format: 'json', from: '0000-12-31T23:00:00Z' },
    ]) {
      const answer = await client.get('/v1/audit-logs').qs(qs).bearerToken(key)
      answer.assertStatus(422)
      assert.equal(answer.body().errors[0].code, 'timestamp_range')
    }

    // A day or an hour that does not exist is refused, not read as another.
    for (const qs of [
      { format: 'csv', from: '2026-02-30' },
      { format: 'csv', to: '2026-02-28T24:00:00Z' },
      { format: 'json', from: '2026-13-01T00:00:00Z' },
    ]) {
      const answer = await client.get('/v1/audit-logs').qs(qs).bearerToken(key)
      answer.assertStatus(422)
      assert.equal(answer.body().errors[0].code, 'timestamp', JSON.stringify(qs))
    }
    ;(
      await client.get('/v1/audit-logs').qs({ format: 'csv', from: '2024-02-29' }).bearerToken(key)
    ).assertStatus(200)
  })
})
