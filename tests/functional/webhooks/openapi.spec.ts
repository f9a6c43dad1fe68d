import { test } from '@japa/runner'
import { pointerTo, schemaChecker } from '#tests/support/openapi_schemas'
import { leadBody, livePublisher } from '#tests/support/fixtures'
import { Receiver, compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'

const resolve = (doc: any, value: any) =>
  value?.$ref
    ? value.$ref
        .slice(2)
        .split('/')
        .reduce(
          (node: any, segment: string) =>
            node?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
          doc
        )
    : value

/** Checks real answers against the schema the served document gives their status and media type. */
function conformance(doc: any) {
  const checker = schemaChecker(doc)
  return {
    checker,
    conforms(response: any, method: string, path: string) {
      const status = String(response.status())
      const answer = doc.paths[path]?.[method.toLowerCase()]?.responses[status]
      if (!answer) throw new Error(`${method} ${path} → ${status}: this status is not documented`)
      const content = resolve(doc, answer).content
      if (!content) return
      const base = answer.$ref
        ? answer.$ref.slice(2).split('/')
        : ['paths', path, method.toLowerCase(), 'responses', status]
      const media = String(response.header('content-type')).split(';')[0]
      const check = checker.compile(pointerTo(...base, 'content', media, 'schema'))
      if (!check(response.body())) {
        throw new Error(
          `${method} ${path} → ${status}: ${JSON.stringify(check.errors)}\n${JSON.stringify(response.body())}`
        )
      }
    },
  }
}

test.group('Webhooks / OpenAPI', () => {
  test('every webhook answer, and the events themselves, match the OpenAPI document', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { checker, conforms } = conformance((await client.get('/v1/openapi.json')).body())
    const restore = compressWebhookClock()
    const { publisher, key } = await livePublisher()
    const receiver = await Receiver.start()
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await receiver.close()
      restore()
    })

    const created = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: receiver.url, events: ['lead.received'], fifo: true, rate_limit_per_second: 50 })
    conforms(created, 'POST', '/v1/webhook-endpoints')
    const id = created.body().id
    conforms(
      await client.get('/v1/webhook-endpoints').bearerToken(key),
      'GET',
      '/v1/webhook-endpoints'
    )
    conforms(
      await client.get(`/v1/webhook-endpoints/${id}`).bearerToken(key),
      'GET',
      '/v1/webhook-endpoints/{id}'
    )
    conforms(
      await client
        .patch(`/v1/webhook-endpoints/${id}`)
        .bearerToken(key)
        .json({ description: null, rate_limit_per_second: null }),
      'PATCH',
      '/v1/webhook-endpoints/{id}'
    )
    conforms(
      await client.post(`/v1/webhook-endpoints/${id}/rotate-secret`).bearerToken(key),
      'POST',
      '/v1/webhook-endpoints/{id}/rotate-secret'
    )

    await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    await eventually(() => receiver.answered.length === 1, 'the delivery')
    const event = receiver.answered[0].json
    const eventSchema = checker.compile(
      pointerTo(
        'webhooks',
        'lead.received',
        'post',
        'requestBody',
        'content',
        'application/json',
        'schema'
      )
    )
    assert.isTrue(eventSchema(event), JSON.stringify(eventSchema.errors))

    const deliveries = await eventually(async () => {
      const response = await client.get(`/v1/webhook-endpoints/${id}/deliveries`).bearerToken(key)
      return response.body().data[0]?.status === 'succeeded' && response
    }, 'the delivery recorded')
    conforms(deliveries, 'GET', '/v1/webhook-endpoints/{id}/deliveries')
    const deliveryId = deliveries.body().data[0].id
    conforms(
      await client.get('/v1/webhook-deliveries').bearerToken(key).qs({ status: 'succeeded' }),
      'GET',
      '/v1/webhook-deliveries'
    )
    conforms(
      await client.get(`/v1/webhook-deliveries/${deliveryId}`).bearerToken(key),
      'GET',
      '/v1/webhook-deliveries/{id}'
    )
    conforms(
      await client.post(`/v1/webhook-deliveries/${deliveryId}/retry`).bearerToken(key),
      'POST',
      '/v1/webhook-deliveries/{id}/retry'
    )
    conforms(
      await client.post(`/v1/events/${event.event_id}/replay`).bearerToken(key),
      'POST',
      '/v1/events/{event_id}/replay'
    )

    const task = await client
      .post(`/v1/webhook-endpoints/${id}/recover`)
      .bearerToken(key)
      .json({ since: new Date(Date.now() - 60_000).toISOString() })
    conforms(task, 'POST', '/v1/webhook-endpoints/{id}/recover')
    conforms(
      await client.post('/v1/webhook-deliveries/retry').bearerToken(key).json({ status: 'failed' }),
      'POST',
      '/v1/webhook-deliveries/retry'
    )
    await eventually(
      async () =>
        (await client.get(`/v1/webhook-recoveries/${task.body().id}`).bearerToken(key)).body()
          .status === 'completed',
      'the task'
    )
    conforms(
      await client.get(`/v1/webhook-recoveries/${task.body().id}`).bearerToken(key),
      'GET',
      '/v1/webhook-recoveries/{id}'
    )

    conforms(
      await client
        .post('/v1/webhook-endpoints')
        .bearerToken(key)
        .json({ url: 'http://10.0.0.1/', events: ['lead.received'] }),
      'POST',
      '/v1/webhook-endpoints'
    )
    conforms(
      await client
        .get('/v1/webhook-endpoints/0193a000-0000-7000-8000-000000000000')
        .bearerToken(key),
      'GET',
      '/v1/webhook-endpoints/{id}'
    )
    // A disabled endpoint takes no resend: 409.
    await client.patch(`/v1/webhook-endpoints/${id}`).bearerToken(key).json({ status: 'disabled' })
    conforms(
      await client.post(`/v1/webhook-deliveries/${deliveryId}/retry`).bearerToken(key),
      'POST',
      '/v1/webhook-deliveries/{id}/retry'
    )
    conforms(
      await client
        .post(`/v1/webhook-endpoints/${id}/recover`)
        .bearerToken(key)
        .json({ since: new Date().toISOString() }),
      'POST',
      '/v1/webhook-endpoints/{id}/recover'
    )
    conforms(
      await client.delete(`/v1/webhook-endpoints/${id}`).bearerToken(key),
      'DELETE',
      '/v1/webhook-endpoints/{id}'
    )
  })
})
