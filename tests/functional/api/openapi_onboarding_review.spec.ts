import { test } from '@japa/runner'
import { answerChecker } from '#tests/support/openapi_schemas'
import {
  createBuyer,
  createKey,
  createLabel,
  createPublisher,
  leadBody,
  livePublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

/**
 * The answers of the review, onboarding, label and buyer updates and the
 * access log match the OpenAPI document, errors included.
 */
test.group('OpenAPI / review, onboarding, updates and the access log answer as documented', () => {
  test('each route, with its success and its refusals', async ({ client }) => {
    const document = (await client.get('/v1/openapi.json')).body()
    const conforms = answerChecker(document)
    const operator = await operatorKey()

    const { publisher: live, key } = await livePublisher({ phone: { action: 'flag' } })
    const flagged = await client
      .post('/v1/leads')
      .bearerToken(key)
      .json(leadBody(live.slug, { contact: { phone: '12345' } }))
    const review = `/v1/leads/${flagged.body().id}/review`
    conforms(
      await client.post(review).bearerToken(operator).json({ decision: 'maybe' }),
      'POST',
      '/v1/leads/{id}/review'
    )
    conforms(
      await client.post(review).bearerToken(key).json({ decision: 'approve' }),
      'POST',
      '/v1/leads/{id}/review'
    )
    conforms(
      await client.post(review).bearerToken(operator).json({ decision: 'reject', reason: 'No.' }),
      'POST',
      '/v1/leads/{id}/review'
    )
    conforms(
      await client.post(review).bearerToken(operator).json({ decision: 'approve' }),
      'POST',
      '/v1/leads/{id}/review'
    )
    conforms(
      await client.get(`/v1/leads/${flagged.body().id}`).bearerToken(key),
      'GET',
      '/v1/leads/{id}'
    )

    const publisher = await createPublisher()
    const own = (await createKey({ publisherId: publisher.id })).secret
    const confirm = `/v1/publishers/${publisher.id}/quality-rules/confirm`
    const goLive = `/v1/publishers/${publisher.id}/go-live-request`
    conforms(
      await client.post(goLive).bearerToken(own),
      'POST',
      '/v1/publishers/{id}/go-live-request'
    )
    conforms(
      await client.post(confirm).bearerToken(own).json({ rules_version: 7 }),
      'POST',
      '/v1/publishers/{id}/quality-rules/confirm'
    )
    conforms(
      await client.post(confirm).bearerToken(own),
      'POST',
      '/v1/publishers/{id}/quality-rules/confirm'
    )
    await client
      .patch(`/v1/publishers/${publisher.id}`)
      .bearerToken(own)
      .json({ delivery_methods: ['api'] })
    conforms(
      await client.post(goLive).bearerToken(own),
      'POST',
      '/v1/publishers/{id}/go-live-request'
    )
    conforms(
      await client
        .patch(`/v1/publishers/${publisher.id}`)
        .bearerToken(operator)
        .json({ status: 'live' }),
      'PATCH',
      '/v1/publishers/{id}'
    )
    conforms(await client.get('/v1/publishers').bearerToken(operator), 'GET', '/v1/publishers')

    const [label, other] = [await createLabel(), await createLabel()]
    const host = `${unique('leads')}.acme.example`
    conforms(
      await client
        .patch(`/v1/labels/${label.id}`)
        .bearerToken(operator)
        .json({ branding: { primary_color: '#0f766e' }, custom_host: host }),
      'PATCH',
      '/v1/labels/{id}'
    )
    conforms(
      await client
        .patch(`/v1/labels/${other.id}`)
        .bearerToken(operator)
        .json({ custom_host: host }),
      'PATCH',
      '/v1/labels/{id}'
    )
    conforms(await client.get('/v1/labels').bearerToken(operator), 'GET', '/v1/labels')

    const buyer = await createBuyer()
    conforms(
      await client.patch(`/v1/buyers/${buyer.id}`).bearerToken(operator).json({ status: 'paused' }),
      'PATCH',
      '/v1/buyers/{id}'
    )
    conforms(
      await client.patch(`/v1/buyers/${buyer.id}`).bearerToken(key).json({ status: 'paused' }),
      'PATCH',
      '/v1/buyers/{id}'
    )

    conforms(
      await client.get('/v1/access-logs').qs({ limit: 5 }).bearerToken(operator),
      'GET',
      '/v1/access-logs'
    )
    conforms(await client.get('/v1/access-logs').bearerToken(own), 'GET', '/v1/access-logs')
    conforms(
      await client
        .get('/v1/access-logs')
        .bearerToken((await createKey({ buyerId: buyer.id })).secret),
      'GET',
      '/v1/access-logs'
    )
    conforms(
      await client.get('/v1/access-logs').qs({ cursor: 'junk' }).bearerToken(operator),
      'GET',
      '/v1/access-logs'
    )
  })
})
