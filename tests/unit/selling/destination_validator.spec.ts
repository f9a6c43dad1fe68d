import { test } from '@japa/runner'
import { errors } from '@vinejs/vine'
import { createDestinationValidator, updateDestinationValidator } from '#validators/destination'
import { destinationProblems } from '#services/selling/destination_problems'
import { separateSecrets } from '#services/selling/http_destination'

const http = (changes: Record<string, unknown> = {}) => ({
  method: 'POST',
  url: 'https://buyer.example/leads',
  content_type: 'json',
  template: '{"email": "{{ contact.email }}"}',
  response: { accepted: { status: [200], path: '$.status', equals: 'ok' } },
  ...changes,
})

async function refusals(
  validator: { validate: (body: unknown) => Promise<unknown> },
  body: unknown
) {
  try {
    await validator.validate(body)
    return []
  } catch (error) {
    if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error
    return (error.messages as { field: string; rule: string }[]).map(({ field, rule }) => [
      field,
      rule,
    ])
  }
}

const create = (body: unknown) => refusals(createDestinationValidator, body)

test.group('Selling / the destination validator', () => {
  test('an http destination with every part validates', async ({ assert }) => {
    const body = {
      name: 'Acme CRM',
      kind: 'http',
      http: http({
        headers: { 'X-Source': 'leadgate' },
        auth: {
          type: 'oauth2',
          token_url: 'https://auth.acme.example/token',
          client_id: 'id',
          client_secret: 'secret',
          scope: 'leads',
        },
        timeout_ms: 5000,
        response: {
          accepted: { status: [200, 201], path: '$.status', equals: 'ok' },
          rejected: { matches: '(?i)reject' },
          duplicate: { status: [409] },
          reason_path: '$.reason',
          buyer_lead_id_path: '$.id',
          price_path: '$.price',
          price_unit: 'currency',
        },
        ping: {
          url: 'https://buyer.example/ping',
          template: '{}',
          bid_path: '$.bid',
          bid_id_path: '$.id',
          expires_in_path: '$.ttl',
          timeout_ms: 400,
          bid_unit: 'cents',
        },
      }),
    }
    assert.deepEqual(await create(body), [])
    const valid = await createDestinationValidator.validate(body)
    assert.deepEqual(valid.http?.auth, {
      type: 'oauth2',
      token_url: 'https://auth.acme.example/token',
      client_id: 'id',
      client_secret: 'secret',
      scope: 'leads',
    })
  })

  test('each kind requires its own settings and refuses the others’', async ({ assert }) => {
    assert.deepEqual(await create({ name: 'W', kind: 'webhook' }), [])
    assert.deepEqual(await create({ name: 'H', kind: 'http' }), [['http', 'required']])
    assert.deepEqual(await create({ name: 'E', kind: 'email' }), [['email', 'required']])
    assert.deepEqual(
      await create({ name: 'E', kind: 'email', email: { to: 'buyer@example.com' } }),
      []
    )
    assert.deepEqual(
      await create({ name: 'C', kind: 'crm', crm: { plugin: 'crm-hubspot', settings: {} } }),
      []
    )
    assert.deepEqual(
      await create({ name: 'W', kind: 'webhook', email: { to: 'buyer@example.com' } }),
      [['email', 'kind']]
    )
  })

  test('unknown fields, methods, content types and auth types are refused', async ({ assert }) => {
    const problems = await create({
      name: 'x',
      kind: 'http',
      colour: 'red',
      http: http({
        method: 'PATCH',
        content_type: 'yaml',
        auth: { type: 'digest' },
        response: { accepted: { status: [200], extra: 1 } },
      }),
    })
    assert.sameDeepMembers(problems, [
      ['colour', 'unknown_field'],
      ['http.method', 'enum'],
      ['http.content_type', 'enum'],
      ['http.auth.type', 'auth_type'],
      ['http.response.accepted.extra', 'unknown_field'],
    ])
  })

  test('every string and number is bounded', async ({ assert }) => {
    const problems = await create({
      name: 'x',
      kind: 'http',
      http: http({
        url: `https://buyer.example/${'a'.repeat(2100)}`,
        template: 'x'.repeat(20_001),
        timeout_ms: 30_001,
        headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])),
        response: {
          accepted: { status: [99], path: `$.${'a'.repeat(500)}`, matches: 'a'.repeat(501) },
        },
        ping: {
          url: 'https://buyer.example/ping',
          template: '{}',
          bid_path: '$.bid',
          bid_id_path: '$.id',
          timeout_ms: 10_000,
        },
      }),
    })
    assert.sameDeepMembers(problems, [
      ['http.url', 'maxLength'],
      ['http.template', 'maxLength'],
      ['http.timeout_ms', 'range'],
      ['http.headers', 'header_count'],
      ['http.response.accepted.status.0', 'range'],
      ['http.response.accepted.path', 'maxLength'],
      ['http.response.accepted.matches', 'maxLength'],
      ['http.ping.timeout_ms', 'range'],
    ])
  })

  test('headers Leadgate sets itself, or that are no header names, are refused', async ({
    assert,
  }) => {
    const problems = await create({
      name: 'x',
      kind: 'http',
      http: http({
        headers: {
          'X-Leadgate-Signature': 'forged',
          'Webhook-Id': '1',
          'Bad Name': 'v',
          'Host': 'h',
        },
      }),
    })
    assert.lengthOf(problems, 4)
    assert.isTrue(
      problems.every(([field, rule]) => field === 'http.headers' && rule === 'header_name')
    )
  })

  test('a secret is required on create and may be left out on update', async ({ assert }) => {
    assert.deepEqual(
      await create({ name: 'x', kind: 'http', http: http({ auth: { type: 'bearer' } }) }),
      [['http.auth.token', 'required']]
    )
    assert.deepEqual(
      await refusals(updateDestinationValidator, { http: http({ auth: { type: 'bearer' } }) }),
      []
    )
    assert.deepEqual(await refusals(updateDestinationValidator, { kind: 'email' }), [
      ['kind', 'unknown_field'],
    ])
  })

  test('separateSecrets keeps the auth’s secret apart from what is stored', ({ assert }) => {
    const { http: stored, secrets } = separateSecrets(
      http({ auth: { type: 'basic', username: 'u', password: 'p', token: 'stray' } }) as any
    )
    assert.deepEqual(stored.auth, { type: 'basic', username: 'u' })
    assert.deepEqual(secrets, { password: 'p' })
    assert.deepEqual(separateSecrets(http() as any).secrets, {})
  })
})

test.group('Selling / destinationProblems', () => {
  test('a sound destination has none', async ({ assert }) => {
    assert.deepEqual(await destinationProblems(http() as any), [])
  })

  test('URLs the SSRF policy refuses, templates and rules that cannot work, by field', async ({
    assert,
  }) => {
    const problems = await destinationProblems(
      http({
        url: 'http://10.0.0.7/leads',
        template: '{"email": {{ contact.email }}}',
        auth: { type: 'oauth2', token_url: 'http://169.254.169.254/token', client_id: 'x' },
        response: { accepted: { path: '$.a[' } },
        ping: {
          url: 'http://user:pw@buyer.example/ping',
          template: '{}',
          bid_path: '$.bid',
          bid_id_path: '/[',
        },
      }) as any
    )
    assert.deepEqual(
      problems.map((problem) => [problem.field, problem.code]),
      [
        ['http.url', 'forbidden_address'],
        ['http.ping.url', 'url_credentials'],
        ['http.auth.token_url', 'forbidden_address'],
        ['http.template', 'template_document'],
        ['http.response.accepted.path', 'path'],
        ['http.ping.bid_id_path', 'path'],
      ]
    )
  })
})
