import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { leadBody, livePublisher, operatorKey } from '#tests/support/fixtures'

/** Two leads of one publisher: one accepted, one rejected for its phone. */
async function twoLeads(client: ApiClient) {
  const world = await livePublisher()
  const send = (overrides: Record<string, any> = {}) =>
    client.post('/v1/leads').bearerToken(world.key).json(leadBody(world.publisher.slug, overrides))
  const accepted = (await send()).body().id as string
  const rejected = await send({ contact: { phone: '12' } })
  rejected.assertStatus(422)
  return { world, accepted, rejected: rejected.body().id as string }
}

const idsOf = (response: { body(): { data: { id: string }[] } }) =>
  response.body().data.map((lead) => lead.id)

test.group('Leads / list filters by reason and channel', () => {
  test('reason keeps the leads given that reason; channel the leads that came that way', async ({
    client,
    assert,
  }) => {
    const { world, accepted, rejected } = await twoLeads(client)
    const list = (qs: Record<string, string>) =>
      client
        .get('/v1/leads')
        .qs({ publisher: world.publisher.slug, ...qs })
        .bearerToken(world.key)

    const byReason = await list({ reason: 'invalid_phone' })
    byReason.assertStatus(200)
    assert.deepEqual(idsOf(byReason), [rejected])
    assert.deepEqual(idsOf(await list({ reason: 'duplicate' })), [])

    assert.sameMembers(idsOf(await list({ channel: 'api' })), [accepted, rejected])
    assert.deepEqual(idsOf(await list({ channel: 'upload' })), [])

    // The operator filters the same way across publishers.
    const operator = await client
      .get('/v1/leads')
      .qs({ reason: 'invalid_phone', publisher: world.publisher.slug })
      .bearerToken(await operatorKey())
    assert.deepEqual(idsOf(operator), [rejected])
  })

  test('an unknown reason or channel is refused with 422, naming the field', async ({
    client,
    assert,
  }) => {
    const { world } = await twoLeads(client)
    for (const qs of [{ reason: 'not_a_reason' }, { channel: 'fax' }]) {
      const response = await client.get('/v1/leads').qs(qs).bearerToken(world.key)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, Object.keys(qs)[0])
    }
  })
})

test.group('Leads / list filters in the OpenAPI document', () => {
  test('GET /v1/leads documents reason and channel with the values it takes', async ({
    client,
    assert,
  }) => {
    const document = (await client.get('/v1/openapi.json')).body()
    const parameters: { name: string; schema: { enum?: string[] } }[] =
      document.paths['/v1/leads'].get.parameters
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]))
    assert.includeMembers(byName.get('reason')!.schema.enum!, ['invalid_phone', 'review_rejected'])
    assert.sameMembers(byName.get('channel')!.schema.enum!, ['api', 'request', 'form', 'upload'])
  })
})
