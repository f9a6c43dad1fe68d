import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import { Validator } from '@seriousme/openapi-schema-validator'
import { pointerTo, schemaChecker } from '#tests/support/openapi_schemas'
import {
  createKey,
  createPublisher,
  leadBody,
  livePublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

type Operation = { method: string; path: string; operation: Record<string, any> }

async function fetchDocument(client: any) {
  const response = await client.get('/v1/openapi.json')
  response.assertStatus(200)
  return response.body()
}

function operationsOf(document: any): Operation[] {
  return Object.entries(document.paths as Record<string, any>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method: method.toUpperCase(),
      path,
      operation: item[method],
    }))
  )
}

/** The router's own list of `/v1` routes, `:id` written as `{id}`. */
function routedOperations() {
  const routes = Object.values(router.toJSON()).flat()
  return new Set(
    routes
      .filter((route) => route.pattern.startsWith('/v1/'))
      .flatMap((route) =>
        route.methods
          .filter((method) => method !== 'HEAD')
          .map((method) => `${method} ${route.pattern.replace(/:(\w+)\??/g, '{$1}')}`)
      )
  )
}

/** Every Schema Object in the document, as JSON pointers. */
function schemaPointers(node: unknown, path: string[] = []): string[] {
  const inComponents = path.length === 3 && path[0] === 'components' && path[1] === 'schemas'
  if (inComponents || path.at(-1) === 'schema') return [pointerTo(...path)]
  if (!node || typeof node !== 'object') return []
  return Object.entries(node).flatMap(([key, child]) => schemaPointers(child, [...path, key]))
}

function resolve(document: any, value: any) {
  if (!value?.$ref) return value
  return value.$ref
    .slice(2)
    .split('/')
    .reduce(
      (node: any, segment: string) => node?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      document
    )
}

test.group('OpenAPI / document', () => {
  test('is served at /v1/openapi.json without credentials, as JSON', async ({ client, assert }) => {
    const response = await client.get('/v1/openapi.json')
    response.assertStatus(200)
    assert.include(response.header('content-type'), 'application/json')
    assert.equal(response.body().openapi, '3.1.0')
    assert.equal(response.body().info.title, 'Leadgate API')
  })

  test('every /v1 route the router serves is documented', async ({ client, assert }) => {
    const document = await fetchDocument(client)
    const documented = new Set(
      operationsOf(document).map(({ method, path }) => `${method} ${path}`)
    )
    const routed = routedOperations()
    assert.isAbove(routed.size, 20)

    const undocumented = [...routed].filter((route) => !documented.has(route))
    assert.deepEqual(
      undocumented,
      [],
      `Routes missing from the OpenAPI document (app/openapi/): ${undocumented.join(', ')}`
    )
  })

  test('exactly the operations the server does not route are marked planned', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const routed = routedOperations()
    for (const { method, path, operation } of operationsOf(document)) {
      const planned = operation['x-leadgate-status'] === 'planned'
      assert.equal(planned, !routed.has(`${method} ${path}`), `${method} ${path}`)
    }
    // Routes of the route map that are not served yet are still documented.
    assert.equal(
      document.paths['/v1/webhook-endpoints/{id}/rotate-secret']?.post?.operationId,
      'rotateWebhookSecret'
    )
  })

  test('covers every route of the route map and the credential and user routes', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const documented = new Set(
      operationsOf(document).map(({ method, path }) => `${method} ${path}`)
    )
    const expected = [
      'POST /v1/labels',
      'POST /v1/publishers',
      'GET /v1/publishers',
      'GET /v1/publishers/{id}',
      'PATCH /v1/publishers/{id}',
      'GET /v1/publishers/{id}/quality-rules',
      'PUT /v1/publishers/{id}/quality-rules',
      'POST /v1/buyers',
      'GET /v1/buyers',
      'POST /v1/routing-rules',
      'GET /v1/routing-rules',
      'GET /v1/routing-rules/{id}',
      'PATCH /v1/routing-rules/{id}',
      'DELETE /v1/routing-rules/{id}',
      'POST /v1/api-keys',
      'GET /v1/api-keys',
      'DELETE /v1/api-keys/{id}',
      'POST /v1/oauth/token',
      'POST /v1/oauth-clients',
      'GET /v1/oauth-clients',
      'DELETE /v1/oauth-clients/{id}',
      'POST /v1/users',
      'GET /v1/users',
      'PATCH /v1/users/{id}',
      'POST /v1/users/{id}/invitation',
      'POST /v1/publishers/{id}/invitation',
      'POST /v1/leads',
      'GET /v1/leads/{id}',
      'GET /v1/leads',
      'POST /v1/requests',
      'GET /v1/requests/{id}',
      'GET /v1/audit-logs',
      'GET /v1/audit-logs/verify',
      'GET /v1/audit-logs/proof',
      'GET /v1/audit-logs/consistency',
      'GET /v1/audit-logs/checkpoints/latest',
      'POST /v1/webhook-endpoints',
      'GET /v1/webhook-endpoints/{id}',
      'PATCH /v1/webhook-endpoints/{id}',
      'DELETE /v1/webhook-endpoints/{id}',
      'POST /v1/webhook-endpoints/{id}/rotate-secret',
      'GET /v1/webhook-endpoints/{id}/deliveries',
      'POST /v1/webhook-deliveries/{id}/retry',
      'POST /v1/webhook-endpoints/{id}/recover',
      'POST /v1/events/{event_id}/replay',
    ]
    assert.deepEqual(
      expected.filter((route) => !documented.has(route)),
      []
    )
  })

  test('is a valid OpenAPI 3.1 document', async ({ client, assert }) => {
    const document = await fetchDocument(client)
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document))
    assert.isTrue(result.valid, JSON.stringify(result.errors, null, 2))
    assert.equal(validator.version, '3.1')
  })

  test('every schema is valid JSON Schema 2020-12 and every $ref resolves', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const checker = schemaChecker(document)
    const pointers = schemaPointers(document)
    assert.isAbove(pointers.length, 100)
    for (const pointer of pointers) {
      const schema = pointer
        .split('/')
        .slice(1)
        .reduce(
          (node: any, segment) =>
            node[decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~')],
          document
        )
      assert.deepEqual(checker.metaSchemaErrors(schema), [], pointer)
      try {
        checker.compile(pointer)
      } catch (error) {
        assert.fail(`${decodeURIComponent(pointer)}: ${(error as Error).message}`)
      }
    }
  })

  test('holds each schema once and uses every component', async ({ client, assert }) => {
    const document = await fetchDocument(client)
    const seen = new Map<string, string>()
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      const key = JSON.stringify(schema)
      if (key.length > 80)
        assert.isUndefined(seen.get(key), `${name} repeats ${seen.get(key)}: $ref it instead`)
      seen.set(key, name)
    }
    const text = JSON.stringify({
      ...document,
      components: { ...document.components, securitySchemes: {} },
    })
    for (const kind of ['schemas', 'parameters', 'headers', 'responses']) {
      for (const name of Object.keys(document.components[kind])) {
        const used =
          text.includes(`"#/components/${kind}/${name}"`) ||
          (kind === 'responses' && name === 'MethodNotAllowed')
        assert.isTrue(used, `components.${kind}.${name} is never referenced`)
      }
    }
  })
})

test.group('OpenAPI / conventions', () => {
  test('every operation has an id, a declared tag, a summary, a 2xx answer and its standard errors', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const tags = new Set(document.tags.map((tag: any) => tag.name))
    const ids = new Set<string>()
    for (const { method, path, operation } of operationsOf(document)) {
      const where = `${method} ${path}`
      assert.notInclude([...ids], operation.operationId, where)
      ids.add(operation.operationId)
      assert.lengthOf(operation.tags, 1, where)
      assert.isTrue(tags.has(operation.tags[0]), where)
      assert.isString(operation.summary, where)

      const codes = Object.keys(operation.responses)
      assert.isTrue(
        codes.some((code) => /^2/.test(code)),
        where
      )
      const authenticated = operation.security.length > 0 && 'apiKey' in operation.security[0]
      const expected = [
        ...(authenticated ? ['401', '403', '429'] : []),
        ...(operation.requestBody ? ['400', '413', '415', '422'] : []),
        ...(path.includes('{') ? ['404'] : []),
      ]
      assert.includeMembers(codes, expected, where)
      for (const code of codes.filter((status) => /^[45]/.test(status))) {
        const answer = resolve(document, operation.responses[code])
        assert.property(answer.content, 'application/problem+json', `${where} ${code}`)
      }
      if (authenticated) {
        const scope = method === 'GET' ? 'read' : 'submit'
        assert.deepEqual(operation.security, [{ apiKey: [] }, { oauth2: [scope] }], where)
      }
    }
  })

  test('errors are RFC 9457 problems with code and field errors; 429 announces the rate-limit headers', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const problem = document.components.schemas.Problem
    assert.includeMembers(Object.keys(problem.properties), [
      'type',
      'title',
      'status',
      'code',
      'detail',
      'instance',
      'request_id',
      'errors',
    ])
    assert.includeMembers(problem.required, ['type', 'title', 'status', 'code'])
    assert.deepEqual(resolve(document, problem.properties.errors.items).required, [
      'field',
      'code',
      'message',
    ])

    const responses = document.components.responses
    const byStatus = Object.fromEntries(
      Object.values(responses).map((answer: any) => [
        answer.content['application/problem+json'].example.status,
        answer,
      ])
    )
    assert.includeMembers(
      Object.keys(byStatus).map(Number),
      [400, 401, 403, 404, 405, 413, 415, 422, 429]
    )
    assert.includeMembers(Object.keys(byStatus[429].headers), [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ])
    assert.property(byStatus[405].headers, 'Allow')
  })

  test('credentials: bearer keys and OAuth 2 client credentials with read and submit scopes', async ({
    client,
    assert,
  }) => {
    const { securitySchemes } = (await fetchDocument(client)).components
    assert.equal(securitySchemes.apiKey.type, 'http')
    assert.equal(securitySchemes.apiKey.scheme, 'bearer')
    assert.include(securitySchemes.apiKey.bearerFormat, 'lg_live_')
    assert.include(securitySchemes.apiKey.bearerFormat, 'lg_test_')
    assert.equal(securitySchemes.oauth2.flows.clientCredentials.tokenUrl, '/v1/oauth/token')
    assert.sameMembers(Object.keys(securitySchemes.oauth2.flows.clientCredentials.scopes), [
      'read',
      'submit',
    ])
  })

  test('lists take limit and cursor and answer {data, next_cursor}', async ({ client, assert }) => {
    const document = await fetchDocument(client)
    const lists = operationsOf(document).filter(({ operation }) =>
      /^list/.test(operation.operationId)
    )
    assert.isAtLeast(lists.length, 9)
    for (const { method, path, operation } of lists) {
      const names = operation.parameters.map((parameter: any) => resolve(document, parameter).name)
      assert.includeMembers(names, ['limit', 'cursor'], `${method} ${path}`)
      const body = resolve(document, operation.responses['200'].content['application/json'].schema)
      assert.sameMembers(body.required, ['data', 'next_cursor'], `${method} ${path}`)
    }
  })

  test('lead submissions take Idempotency-Key; lead and lookup statuses are enums', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    for (const path of ['/v1/leads', '/v1/requests']) {
      const names = document.paths[path].post.parameters.map((parameter: any) =>
        resolve(document, parameter)
      )
      assert.deepInclude(
        names.map((parameter: any) => [parameter.name, parameter.in]),
        ['Idempotency-Key', 'header'],
        path
      )
    }
    const { schemas } = document.components
    assert.sameMembers(schemas.LeadStatus.enum, [
      'received',
      'consented',
      'validated',
      'accepted',
      'flagged',
      'rejected',
      'matched',
      'delivered',
      'paid_out',
      'returned',
    ])
    assert.sameMembers(schemas.RequestStatus.enum, [
      'received',
      'accepted',
      'matched',
      'paid_out',
      'returned',
      'rejected',
      'flagged',
    ])
    assert.sameMembers(schemas.QualityCheck.required, ['consent', 'target_audience', 'duplicate'])
  })

  test('resources carry the field names of the route map', async ({ client, assert }) => {
    const { schemas } = (await fetchDocument(client)).components
    const fields = (name: string) => Object.keys(schemas[name].properties ?? {})
    assert.includeMembers(fields('LabelCreate'), ['slug', 'name', 'branding'])
    assert.includeMembers(fields('Branding'), ['logo_url', 'primary_color'])
    assert.includeMembers(fields('Publisher'), [
      'id',
      'slug',
      'name',
      'label',
      'status',
      'onboarding',
    ])
    assert.includeMembers(fields('PublisherCreate'), [
      'slug',
      'name',
      'contact_email',
      'label',
      'country',
    ])
    assert.includeMembers(fields('PublisherUpdate'), ['name', 'status', 'delivery_methods'])
    assert.includeMembers(fields('QualityRules'), [
      'required_fields',
      'postal_code',
      'phone',
      'email',
      'consent',
      'target_audience',
      'duplicates',
    ])
    assert.includeMembers(fields('BuyerCreate'), ['name', 'contact_email'])
    assert.includeMembers(fields('RoutingRuleCreate'), [
      'buyer_id',
      'labels',
      'publishers',
      'criteria',
      'price_cents',
      'payout_cents',
      'currency',
      'caps',
      'schedule',
      'priority',
      'weight',
    ])
    assert.includeMembers(fields('CredentialCreate'), [
      'name',
      'publisher_id',
      'buyer_id',
      'permissions',
      'environment',
      'allowed_ips',
    ])
    assert.includeMembers(fields('OauthToken'), [
      'access_token',
      'token_type',
      'expires_in',
      'scope',
    ])
    assert.includeMembers(fields('LeadFields'), [
      'publisher',
      'contact',
      'provenance',
      'consent',
      'attributes',
    ])
    assert.includeMembers(fields('Lead'), [
      'id',
      'publisher',
      'status',
      'contact',
      'provenance',
      'consent',
      'quality_check',
      'reasons',
      'created_at',
    ])
    assert.includeMembers(fields('ProvenanceView'), ['source', 'campaign', 'label', 'landing_page'])
    assert.includeMembers(fields('Consent'), ['given', 'text', 'timestamp', 'ip'])
    assert.includeMembers(fields('AuditEntry'), [
      'event',
      'ts',
      'actor',
      'lead_seq',
      'status_from',
      'status_to',
      'prev_hash',
      'hash',
    ])
    assert.includeMembers(fields('LeadVerification'), ['lead_id', 'valid', 'entries', 'broken_at'])
    assert.includeMembers(fields('Checkpoint'), ['origin', 'size', 'root', 'signature', 'key_id'])
    assert.includeMembers(fields('WebhookEndpointCreate'), [
      'url',
      'events',
      'description',
      'publisher_id',
      'buyer_id',
    ])
    assert.includeMembers(fields('WebhookEndpointUpdate'), ['url', 'events', 'status'])
  })
})

/**
 * The document describes what the API really answers: real responses are
 * validated against the documented schema for their status and media type.
 */
async function conformance(client: any) {
  const document = await fetchDocument(client)
  const checker = schemaChecker(document)
  return (response: any, method: string, path: string, expected: number | number[]) => {
    const status = String(response.status())
    if (![expected].flat().includes(response.status()))
      throw new Error(`${method} ${path}: expected ${expected}, got ${status} ${response.text()}`)
    const mediaType = String(response.header('content-type') ?? '').split(';')[0]
    const operation = document.paths[path]?.[method.toLowerCase()]
    const where = `${method} ${path} → ${status} ${mediaType}`
    if (!operation?.responses[status]) throw new Error(`${where}: this status is not documented`)

    const answer = operation.responses[status]
    const base = answer.$ref
      ? answer.$ref.slice(2).split('/')
      : ['paths', path, method.toLowerCase(), 'responses', status]
    const content = resolve(document, answer).content
    if (!content) {
      if (response.text()) throw new Error(`${where}: documented without a body, but one came`)
      return
    }
    if (!content[mediaType]) throw new Error(`${where}: media type not documented`)
    const check = checker.compile(pointerTo(...base, 'content', mediaType, 'schema'))
    const body = mediaType.endsWith('json') ? response.body() : response.text()
    if (!check(body)) {
      throw new Error(
        `${where}: ${JSON.stringify(check.errors, null, 2)}\n${JSON.stringify(response.body(), null, 2)}`
      )
    }
  }
}

test.group('OpenAPI / answers match the document', () => {
  test('catalogue answers', async ({ client }) => {
    const conforms = await conformance(client)
    const key = await operatorKey()

    const label = await client
      .post('/v1/labels')
      .bearerToken(key)
      .json({ slug: unique('lbl'), name: 'Label', branding: { primary_color: '#112233' } })
    conforms(label, 'POST', '/v1/labels', 201)
    conforms(
      await client.get(`/v1/labels/${label.body().id}`).bearerToken(key),
      'GET',
      '/v1/labels/{id}',
      200
    )
    conforms(await client.get('/v1/labels').bearerToken(key), 'GET', '/v1/labels', 200)

    const publisher = await client
      .post('/v1/publishers')
      .bearerToken(key)
      .json({
        slug: unique('pub'),
        name: 'Publisher',
        contact_email: 'p@publisher.example',
        label: label.body().slug,
      })
    conforms(publisher, 'POST', '/v1/publishers', 201)
    const publisherId = publisher.body().id
    conforms(await client.get('/v1/publishers').bearerToken(key), 'GET', '/v1/publishers', 200)
    conforms(
      await client.get(`/v1/publishers/${publisherId}`).bearerToken(key),
      'GET',
      '/v1/publishers/{id}',
      200
    )
    conforms(
      await client
        .patch(`/v1/publishers/${publisherId}`)
        .bearerToken(key)
        .json({ delivery_methods: ['api'] }),
      'PATCH',
      '/v1/publishers/{id}',
      200
    )
    const rules = {
      required_fields: ['contact.email'],
      consent: { required: true, action: 'reject' },
      target_audience: [
        { field: 'attributes.age', op: 'between', value: [18, 80], action: 'flag' },
      ],
    }
    conforms(
      await client.put(`/v1/publishers/${publisherId}/quality-rules`).bearerToken(key).json(rules),
      'PUT',
      '/v1/publishers/{id}/quality-rules',
      200
    )
    conforms(
      await client.get(`/v1/publishers/${publisherId}/quality-rules`).bearerToken(key),
      'GET',
      '/v1/publishers/{id}/quality-rules',
      200
    )

    const buyer = await client
      .post('/v1/buyers')
      .bearerToken(key)
      .json({ name: 'Buyer', contact_email: 'b@buyer.example' })
    conforms(buyer, 'POST', '/v1/buyers', 201)
    conforms(
      await client.get(`/v1/buyers/${buyer.body().id}`).bearerToken(key),
      'GET',
      '/v1/buyers/{id}',
      200
    )
    conforms(await client.get('/v1/buyers').bearerToken(key), 'GET', '/v1/buyers', 200)

    const rule = await client
      .post('/v1/routing-rules')
      .bearerToken(key)
      .json({
        buyer_id: buyer.body().id,
        labels: [label.body().slug],
        publishers: [publisherId],
        price_cents: 2500,
        payout_cents: 1500,
        currency: 'EUR',
        criteria: [{ field: 'attributes.homeowner', op: 'eq', value: true }],
        caps: { daily: 10 },
        schedule: {
          timezone: 'Europe/Amsterdam',
          windows: [{ days: ['mon'], from: '09:00', to: '17:00' }],
        },
      })
    conforms(rule, 'POST', '/v1/routing-rules', 201)
    conforms(
      await client.get(`/v1/routing-rules/${rule.body().id}`).bearerToken(key),
      'GET',
      '/v1/routing-rules/{id}',
      200
    )
    conforms(
      await client
        .patch(`/v1/routing-rules/${rule.body().id}`)
        .bearerToken(key)
        .json({ schedule: null, enabled: false }),
      'PATCH',
      '/v1/routing-rules/{id}',
      200
    )
    conforms(
      await client.get('/v1/routing-rules').bearerToken(key),
      'GET',
      '/v1/routing-rules',
      200
    )
    conforms(
      await client.delete(`/v1/routing-rules/${rule.body().id}`).bearerToken(key),
      'DELETE',
      '/v1/routing-rules/{id}',
      204
    )
  })

  test('credential and user answers', async ({ client }) => {
    const conforms = await conformance(client)
    const key = await operatorKey()
    const publisher = await createPublisher()

    const apiKey = await client
      .post('/v1/api-keys')
      .bearerToken(key)
      .json({
        name: 'k',
        publisher_id: publisher.id,
        permissions: ['read'],
        environment: 'live',
        allowed_ips: ['127.0.0.1'],
      })
    conforms(apiKey, 'POST', '/v1/api-keys', 201)
    conforms(await client.get('/v1/api-keys').bearerToken(key), 'GET', '/v1/api-keys', 200)
    conforms(
      await client.delete(`/v1/api-keys/${apiKey.body().id}`).bearerToken(key),
      'DELETE',
      '/v1/api-keys/{id}',
      204
    )

    const oauthClient = await client
      .post('/v1/oauth-clients')
      .bearerToken(key)
      .json({ name: 'c', permissions: ['read', 'submit'], environment: 'sandbox' })
    conforms(oauthClient, 'POST', '/v1/oauth-clients', 201)
    conforms(
      await client.get('/v1/oauth-clients').bearerToken(key),
      'GET',
      '/v1/oauth-clients',
      200
    )
    const token = await client.post('/v1/oauth/token').form({
      grant_type: 'client_credentials',
      client_id: oauthClient.body().client_id,
      client_secret: oauthClient.body().client_secret,
      scope: 'read',
    })
    conforms(token, 'POST', '/v1/oauth/token', 200)
    conforms(
      await client
        .post('/v1/oauth/token')
        .form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' }),
      'POST',
      '/v1/oauth/token',
      400
    )
    conforms(
      await client.delete(`/v1/oauth-clients/${oauthClient.body().id}`).bearerToken(key),
      'DELETE',
      '/v1/oauth-clients/{id}',
      204
    )

    const user = await client
      .post('/v1/users')
      .bearerToken(key)
      .json({
        email: `${unique('u')}@publisher.example`,
        password: 'a-long-enough-password',
        role: 'publisher_user',
        publisher_id: publisher.id,
        permissions: ['read'],
      })
    conforms(user, 'POST', '/v1/users', 201)
    conforms(await client.get('/v1/users').bearerToken(key), 'GET', '/v1/users', 200)
    conforms(
      await client.patch(`/v1/users/${user.body().id}`).bearerToken(key).json({ disabled: true }),
      'PATCH',
      '/v1/users/{id}',
      200
    )
  })

  test('lead, request and audit answers', async ({ client }) => {
    const conforms = await conformance(client)
    const { publisher, key } = await livePublisher({
      target_audience: [{ field: 'attributes.age', op: 'gte', value: 18, action: 'reject' }],
    })

    const accepted = await client
      .post('/v1/leads')
      .bearerToken(key)
      .header('idempotency-key', unique('idem'))
      .json(leadBody(publisher.slug, { attributes: { age: 40 } }))
    conforms(accepted, 'POST', '/v1/leads', 201)
    const rejected = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(publisher.slug, { attributes: { age: 12 } }))
    conforms(rejected, 'POST', '/v1/leads', 422)
    conforms(
      await client.post('/v1/leads').bearerToken(key).json({ publisher: publisher.slug }),
      'POST',
      '/v1/leads',
      422
    )

    const leadId = accepted.body().id
    conforms(await client.get(`/v1/leads/${leadId}`).bearerToken(key), 'GET', '/v1/leads/{id}', 200)
    conforms(
      await client.get('/v1/leads').bearerToken(key).qs({ status: 'accepted', limit: 5 }),
      'GET',
      '/v1/leads',
      200
    )

    const request = await client
      .post('/v1/requests')
      .bearerToken(key)
      .json({ ...leadBody(publisher.slug, { attributes: { age: 30 } }), publisher: undefined })
    conforms(request, 'POST', '/v1/requests', 201)
    conforms(
      await client.get(`/v1/requests/${request.body().id}`).bearerToken(key),
      'GET',
      '/v1/requests/{id}',
      200
    )

    conforms(
      await client.get('/v1/audit-logs').bearerToken(key).qs({ lead_id: leadId, format: 'json' }),
      'GET',
      '/v1/audit-logs',
      200
    )
    conforms(
      await client.get('/v1/audit-logs/verify').bearerToken(key).qs({ lead_id: leadId }),
      'GET',
      '/v1/audit-logs/verify',
      200
    )
    conforms(
      await client.get('/v1/audit-logs/proof').bearerToken(key).qs({ lead_id: leadId }),
      'GET',
      '/v1/audit-logs/proof',
      [200, 409]
    )

    const operator = await operatorKey()
    conforms(
      await client.get('/v1/audit-logs/verify').bearerToken(operator),
      'GET',
      '/v1/audit-logs/verify',
      200
    )
    const latest = await client.get('/v1/audit-logs/checkpoints/latest').bearerToken(operator)
    conforms(latest, 'GET', '/v1/audit-logs/checkpoints/latest', [200, 404])
    const size = latest.status() === 200 ? latest.body().size : 0
    conforms(
      await client
        .get('/v1/audit-logs/consistency')
        .bearerToken(operator)
        .qs({ from: size, to: size }),
      'GET',
      '/v1/audit-logs/consistency',
      latest.status() === 200 ? 200 : 404
    )
    for (const format of ['json', 'csv']) {
      conforms(
        await client
          .get('/v1/audit-logs')
          .bearerToken(operator)
          .qs({ format, publisher: publisher.slug }),
        'GET',
        '/v1/audit-logs',
        200
      )
    }
  })

  test('webhook answers', async ({ client }) => {
    const conforms = await conformance(client)
    const { publisher, key } = await livePublisher()

    const endpoint = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({
        url: 'http://127.0.0.1:9/hooks',
        events: ['lead.received'],
        description: 'CRM',
        fifo: true,
      })
    conforms(endpoint, 'POST', '/v1/webhook-endpoints', 201)
    const endpointId = endpoint.body().id
    const one = `/v1/webhook-endpoints/${endpointId}`
    conforms(
      await client.get('/v1/webhook-endpoints').bearerToken(key),
      'GET',
      '/v1/webhook-endpoints',
      200
    )
    conforms(await client.get(one).bearerToken(key), 'GET', '/v1/webhook-endpoints/{id}', 200)
    conforms(
      await client
        .patch(one)
        .bearerToken(key)
        .json({ description: null, rate_limit_per_second: 5 }),
      'PATCH',
      '/v1/webhook-endpoints/{id}',
      200
    )
    conforms(
      await client.post(`${one}/rotate-secret`).bearerToken(key),
      'POST',
      '/v1/webhook-endpoints/{id}/rotate-secret',
      200
    )

    ;(await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))).assertStatus(
      201
    )
    const deliveries = await client.get(`${one}/deliveries`).bearerToken(key)
    conforms(deliveries, 'GET', '/v1/webhook-endpoints/{id}/deliveries', 200)
    const [delivery] = deliveries.body().data
    conforms(
      await client.get('/v1/webhook-deliveries').bearerToken(key).qs({ endpoint_id: endpointId }),
      'GET',
      '/v1/webhook-deliveries',
      200
    )
    conforms(
      await client.get(`/v1/webhook-deliveries/${delivery.id}`).bearerToken(key),
      'GET',
      '/v1/webhook-deliveries/{id}',
      200
    )
    conforms(
      await client.post(`/v1/webhook-deliveries/${delivery.id}/retry`).bearerToken(key),
      'POST',
      '/v1/webhook-deliveries/{id}/retry',
      202
    )
    const task = await client
      .post(`${one}/recover`)
      .bearerToken(key)
      .json({ since: new Date(Date.now() - 3_600_000).toISOString() })
    conforms(task, 'POST', '/v1/webhook-endpoints/{id}/recover', 202)
    conforms(
      await client.get(`/v1/webhook-recoveries/${task.body().id}`).bearerToken(key),
      'GET',
      '/v1/webhook-recoveries/{id}',
      200
    )
    conforms(
      await client
        .post('/v1/webhook-deliveries/retry')
        .bearerToken(key)
        .json({ endpoint_id: endpointId }),
      'POST',
      '/v1/webhook-deliveries/retry',
      202
    )
    conforms(
      await client.post(`/v1/events/${delivery.event_id}/replay`).bearerToken(key),
      'POST',
      '/v1/events/{event_id}/replay',
      202
    )
    conforms(await client.delete(one).bearerToken(key), 'DELETE', '/v1/webhook-endpoints/{id}', 204)
  })

  test('problem answers', async ({ client }) => {
    const conforms = await conformance(client)
    const key = await operatorKey()
    conforms(
      await client.get(`/v1/publishers/${randomUUID()}`).bearerToken(key),
      'GET',
      '/v1/publishers/{id}',
      404
    )
    conforms(
      await client.post('/v1/labels').bearerToken(key).json({ slug: 'Not A Slug', name: 'x' }),
      'POST',
      '/v1/labels',
      422
    )
    conforms(
      await client.post('/v1/labels').bearerToken(key).unsafeJson('{"a":'),
      'POST',
      '/v1/labels',
      400
    )
    conforms(
      await client.post('/v1/labels').bearerToken(key).unsafeJson('slug').type('text/plain'),
      'POST',
      '/v1/labels',
      415
    )
    conforms(await client.get('/v1/labels'), 'GET', '/v1/labels', 401)
    const readOnly = await createKey({ permissions: ['read'] })
    conforms(
      await client
        .post('/v1/buyers')
        .bearerToken(readOnly.secret)
        .json({ name: 'x', contact_email: 'x@y.example' }),
      'POST',
      '/v1/buyers',
      403
    )
  })
})
