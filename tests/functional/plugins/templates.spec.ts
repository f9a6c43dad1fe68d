import { createRequire } from 'node:module'
import vm from 'node:vm'
import { test } from '@japa/runner'
import { createKey, createLabel, operatorKey } from '#tests/support/fixtures'
import { newSigningSecret, signatureHeaders } from '#services/webhooks/signing'

const require = createRequire(import.meta.url)

/** A delivery as the delivery job signs it. */
function signedDelivery(secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const eventId = '01936b2e-8f3a-7c41-9d2e-5b8f0a1c3d4e'
  const body = JSON.stringify({
    event_id: eventId,
    type: 'lead.received',
    created: new Date().toISOString(),
    data: { lead_id: '01936b2e-8f30-7000-8000-000000000001', status: 'accepted' },
  })
  return { body, headers: signatureHeaders([secret], eventId, timestamp, body) }
}

/** Runs an n8n Code node as n8n does: `$input`, `$env`, `require`, the result returned. */
function runN8n(code: string, secret: string, delivery: ReturnType<typeof signedDelivery>) {
  const item = {
    json: { headers: delivery.headers },
    binary: { data: { data: Buffer.from(delivery.body).toString('base64') } },
  }
  const context = {
    $input: { first: () => item },
    $env: { LEADGATE_WEBHOOK_SECRET: secret },
    require,
    Buffer,
  }
  return vm.runInNewContext(`(() => {${code}\n})()`, context)
}

/** Runs a Zapier Code step: `inputData` in, `output` out. */
function runZapier(code: string, inputData: Record<string, string>) {
  const context: Record<string, unknown> = { inputData, output: undefined, require, Buffer }
  vm.runInNewContext(code, context)
  return context.output as Record<string, string>
}

test.group('Integrations / no-code templates', () => {
  test('the n8n workflow verifies a signed delivery and refuses a forged or stale one', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const response = await client
      .get(`/v1/labels/${label.id}/templates/n8n`)
      .bearerToken(await operatorKey())
    response.assertStatus(200)
    assert.include(response.header('content-disposition'), `leadgate-${label.slug}-n8n.json`)
    const workflow = response.body()
    const names = workflow.nodes.map((node: any) => node.type)
    assert.includeMembers(names, [
      'n8n-nodes-base.webhook',
      'n8n-nodes-base.code',
      'n8n-nodes-base.switch',
      'n8n-nodes-base.httpRequest',
    ])
    const webhook = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.webhook')
    assert.isTrue(webhook.parameters.options.rawBody)
    const code = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.code').parameters
      .jsCode
    const http = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.httpRequest')
    assert.match(http.parameters.url, /\/v1\/requests$/)

    const secret = newSigningSecret()
    const delivery = signedDelivery(secret)
    const [verified] = runN8n(code, secret, delivery)
    assert.equal(verified.json.type, 'lead.received')

    assert.throws(() => runN8n(code, newSigningSecret(), delivery), /did not verify/)
    const tampered = { ...delivery, body: delivery.body.replace('accepted', 'rejected') }
    assert.throws(() => runN8n(code, secret, tampered), /did not verify/)
    const stale = signedDelivery(secret, Math.floor(Date.now() / 1000) - 3600)
    assert.throws(() => runN8n(code, secret, stale), /did not verify/)
  })

  test('the Zapier setup verifies webhook-signature in its Code step; Make and Zapier name the label', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await operatorKey()
    const setup = (
      await client.get(`/v1/labels/${label.id}/templates/zapier`).bearerToken(operator)
    ).body()
    const step = setup.steps.find((item: any) => item.app === 'Code by Zapier')
    const secret = newSigningSecret()
    const delivery = signedDelivery(secret)
    const inputs = {
      raw_body: delivery.body,
      webhook_id: delivery.headers['webhook-id'],
      webhook_timestamp: delivery.headers['webhook-timestamp'],
      webhook_signature: delivery.headers['webhook-signature'],
      secret,
    }
    assert.equal(runZapier(step.code, inputs).type, 'lead.received')
    assert.throws(() => runZapier(step.code, { ...inputs, secret: newSigningSecret() }))
    assert.match(setup.reverse.url, /\/v1\/requests$/)

    const make = await client.get(`/v1/labels/${label.id}/templates/make`).bearerToken(operator)
    make.assertStatus(200)
    assert.equal(make.body().metadata.leadgate.label, label.slug)
    assert.include(make.body().metadata.leadgate.events, 'match.found')

    const { secret: publisherKey } = await createKey({
      publisherId: (await (await import('#tests/support/fixtures')).createPublisher()).id,
    })
    ;(
      await client.get(`/v1/labels/${label.id}/templates/n8n`).bearerToken(publisherKey)
    ).assertStatus(404)
  })
})
