import { test } from '@japa/runner'
import AccessLogEntry from '#models/access_log_entry'
import ApiKey from '#models/api_key'
import User from '#models/user'
import AuditSealerService from '#services/audit/audit_sealer_service'
import { answerChecker, pointerTo, schemaChecker } from '#tests/support/openapi_schemas'
import {
  createKey,
  createLabel,
  leadBody,
  livePublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

/** Two live publishers, one lead each, and an operator key. */
async function world(client: any) {
  const label = await createLabel()
  const inScope = await livePublisher()
  const outOfScope = await livePublisher()
  inScope.publisher.labelId = label.id
  await inScope.publisher.save()
  const leadIn = await client
    .post('/v1/leads')
    .bearerToken(inScope.key)
    .json(leadBody(inScope.publisher.slug))
  const leadOut = await client
    .post('/v1/leads')
    .bearerToken(outOfScope.key)
    .json(leadBody(outOfScope.publisher.slug))
  leadIn.assertStatus(201)
  leadOut.assertStatus(201)
  return {
    label,
    inScope,
    outOfScope,
    leadIn: leadIn.body().id as string,
    leadOut: leadOut.body().id as string,
    operator: await operatorKey(),
  }
}

async function complianceKey(client: any, operator: string, scope?: object) {
  const response = await client
    .post('/v1/api-keys')
    .bearerToken(operator)
    .json({
      name: unique('auditor'),
      permissions: ['read'],
      environment: 'live',
      compliance: true,
      ...(scope ? { scope } : {}),
    })
  response.assertStatus(201)
  return response.body()
}

test.group('Compliance credentials and scope', () => {
  test('the OpenAPI document describes compliance keys and scopes as they are answered', async ({
    client,
  }) => {
    const document = (await client.get('/v1/openapi.json')).body()
    const answers = answerChecker(document)
    const { inScope, operator } = await world(client)
    const scope = { publishers: [inScope.publisher.slug], from: '2026-01-01' }
    const body = {
      name: 'auditor',
      permissions: ['read'],
      environment: 'live',
      compliance: true,
      scope,
    }
    const requests = schemaChecker(document).compile(
      pointerTo('components', 'schemas', 'ApiKeyCreate')
    )
    if (!requests(body)) throw new Error(JSON.stringify(requests.errors))
    answers(
      await client.post('/v1/api-keys').bearerToken(operator).json(body),
      'POST',
      '/v1/api-keys'
    )
    answers(await client.get('/v1/api-keys').bearerToken(operator), 'GET', '/v1/api-keys')
    const user = await client
      .post('/v1/users')
      .bearerToken(operator)
      .json({ email: `${unique('auditor')}@example.com`, role: 'compliance_officer', scope })
    answers(user, 'POST', '/v1/users')
    answers(
      await client.patch(`/v1/users/${user.body().id}`).bearerToken(operator).json({ scope: null }),
      'PATCH',
      '/v1/users/{id}'
    )
  })

  test('the operator issues a compliance key; it exports, verifies and proves within its scope only', async ({
    client,
    assert,
  }) => {
    const { inScope, outOfScope, leadIn, leadOut, operator } = await world(client)
    const created = await complianceKey(client, operator, {
      publishers: [inScope.publisher.slug],
    })
    assert.equal(created.owner, 'compliance')
    assert.deepEqual(created.permissions, ['read'])
    assert.deepEqual(created.scope, { publishers: [inScope.publisher.slug] })
    const stored = await ApiKey.findOrFail(created.id)
    assert.equal(stored.ownerType, 'compliance')
    assert.isNull(stored.publisherId)
    const granted = await AccessLogEntry.query()
      .where('action', 'api_key.created')
      .where('subject_id', created.id)
      .firstOrFail()
    assert.deepEqual(granted.details.scope, { publishers: [inScope.publisher.slug] })
    const key = created.key

    const csv = await client.get('/v1/audit-logs').qs({ format: 'csv' }).bearerToken(key)
    csv.assertStatus(200)
    assert.include(csv.text(), leadIn)
    assert.notInclude(csv.text(), leadOut)
    const json = await client.get('/v1/audit-logs').qs({ format: 'json' }).bearerToken(key)
    const exported = JSON.parse(json.text())
    assert.isFalse(exported.complete)
    assert.deepEqual(
      exported.leads.map((lead: { lead_id: string }) => lead.lead_id),
      [leadIn]
    )
    // Naming the other publisher reaches nothing more.
    const other = await client
      .get('/v1/audit-logs')
      .qs({ format: 'csv', publisher: outOfScope.publisher.slug })
      .bearerToken(key)
    assert.notInclude(other.text(), leadOut)

    const verified = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: leadIn })
      .bearerToken(key)
    verified.assertStatus(200)
    assert.isTrue(verified.body().valid)
    await new AuditSealerService().sealAll()
    const proof = await client.get('/v1/audit-logs/proof').qs({ lead_id: leadIn }).bearerToken(key)
    proof.assertStatus(200)
    for (const path of ['/v1/audit-logs/verify', '/v1/audit-logs/proof', '/v1/audit-logs']) {
      const hidden = await client.get(path).qs({ lead_id: leadOut }).bearerToken(key)
      hidden.assertStatus(404)
    }
    const lead = await client.get(`/v1/leads/${leadOut}`).bearerToken(key)
    lead.assertStatus(404)

    // The whole log is beyond a scoped key; an unscoped one verifies it.
    const wholeLog = await client.get('/v1/audit-logs/verify').bearerToken(key)
    wholeLog.assertStatus(403)
    const unscoped = await complianceKey(client, operator)
    const everything = await client.get('/v1/audit-logs/verify').bearerToken(unscoped.key)
    everything.assertStatus(200)
    assert.isTrue(everything.body().valid)
    const complete = await client
      .get('/v1/audit-logs')
      .qs({ format: 'json' })
      .bearerToken(unscoped.key)
    assert.isTrue(JSON.parse(complete.text()).complete)

    // A compliance key reads the audit trail and nothing it could change.
    const submitted = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(inScope.publisher.slug))
    submitted.assertStatus(403)
    const keys = await client
      .post('/v1/api-keys')
      .bearerToken(key)
      .json({
        name: 'more',
        permissions: ['read'],
        environment: 'live',
      })
    keys.assertStatus(403)
  })

  test('a scope by label and period narrows what a compliance key sees', async ({
    client,
    assert,
  }) => {
    const { label, leadIn, leadOut, operator } = await world(client)
    const byLabel = await complianceKey(client, operator, { labels: [label.slug] })
    const csv = await client.get('/v1/audit-logs').qs({ format: 'csv' }).bearerToken(byLabel.key)
    assert.include(csv.text(), leadIn)
    assert.notInclude(csv.text(), leadOut)

    const past = await complianceKey(client, operator, { from: '2020-01-01', to: '2021-01-01' })
    assert.deepEqual(past.scope, {
      from: '2020-01-01T00:00:00.000Z',
      to: '2021-01-01T00:00:00.000Z',
    })
    const none = await client.get('/v1/audit-logs').qs({ format: 'csv' }).bearerToken(past.key)
    assert.notInclude(none.text(), leadIn)
    const verify = await client
      .get('/v1/audit-logs/verify')
      .qs({ lead_id: leadIn })
      .bearerToken(past.key)
    verify.assertStatus(404)
  })

  test('compliance keys are the operator’s to give, read-only, owned by no one, and checked', async ({
    client,
    assert,
  }) => {
    const { inScope, operator } = await world(client)
    const base = { name: 'auditor', permissions: ['read'], environment: 'live' }
    const publisherKey = (await createKey({ publisherId: inScope.publisher.id })).secret
    const cases: Array<[string, object, number, string]> = [
      [publisherKey, { ...base, compliance: true }, 403, 'compliance'],
      [
        operator,
        { ...base, compliance: true, permissions: ['read', 'submit'] },
        422,
        'permissions',
      ],
      [
        operator,
        { ...base, compliance: true, publisher_id: inScope.publisher.id },
        422,
        'publisher_id',
      ],
      [operator, { ...base, scope: { publishers: [inScope.publisher.slug] } }, 422, 'scope'],
      [
        operator,
        { ...base, compliance: true, scope: { publishers: ['no-such-pub'] } },
        422,
        'scope.publishers',
      ],
      [
        operator,
        { ...base, compliance: true, scope: { from: '2026-02-01', to: '2026-01-01' } },
        422,
        'scope.to',
      ],
      [operator, { ...base, compliance: true, scope: { colour: 'blue' } }, 422, 'scope.colour'],
      [operator, { ...base, compliance: 'yes' }, 422, 'compliance'],
    ]
    const before = await ApiKey.query().where('owner_type', 'compliance').count('* as total')
    for (const [key, body, status, field] of cases) {
      const response = await client.post('/v1/api-keys').bearerToken(key).json(body)
      response.assertStatus(status)
      const fields = [
        response.body().field,
        ...(response.body().errors ?? []).map((error: { field: string }) => error.field),
      ]
      assert.include(fields, field, JSON.stringify(body))
    }
    const after = await ApiKey.query().where('owner_type', 'compliance').count('* as total')
    assert.equal(after[0].$extras.total, before[0].$extras.total)
  })

  test('the operator scopes a compliance officer; the change is logged; no other role has a scope', async ({
    client,
    assert,
  }) => {
    const { inScope, operator } = await world(client)
    const email = `${unique('auditor')}@example.com`
    const created = await client
      .post('/v1/users')
      .bearerToken(operator)
      .json({
        email,
        role: 'compliance_officer',
        scope: { publishers: [inScope.publisher.slug], from: '2026-01-01' },
      })
    created.assertStatus(201)
    assert.deepEqual(created.body().scope, {
      publishers: [inScope.publisher.slug],
      from: '2026-01-01T00:00:00.000Z',
    })

    const widened = await client
      .patch(`/v1/users/${created.body().id}`)
      .bearerToken(operator)
      .json({ scope: null })
    widened.assertStatus(200)
    assert.isNull(widened.body().scope)
    const user = await User.findByOrFail('email', email)
    assert.isNull(user.scope)
    const logged = await AccessLogEntry.query()
      .where('action', 'user.access_changed')
      .where('subject_id', user.id)
      .firstOrFail()
    assert.deepEqual(logged.details.scope, {
      from: { publishers: [inScope.publisher.slug], from: '2026-01-01T00:00:00.000Z' },
      to: null,
    })

    const wrongRole = await client
      .post('/v1/users')
      .bearerToken(operator)
      .json({
        email: `${unique('user')}@example.com`,
        role: 'publisher_user',
        publisher_id: inScope.publisher.id,
        scope: { publishers: [inScope.publisher.slug] },
      })
    wrongRole.assertStatus(422)
    const byPublisher = await client
      .patch(`/v1/users/${created.body().id}`)
      .bearerToken((await createKey({ publisherId: inScope.publisher.id })).secret)
      .json({ scope: { publishers: [inScope.publisher.slug] } })
    byPublisher.assertStatus(404)
    await user.refresh()
    assert.isNull(user.scope)
  })
})
