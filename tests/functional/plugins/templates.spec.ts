import { createHash, createHmac } from 'node:crypto'
import { strict as check } from 'node:assert'
import { createRequire } from 'node:module'
import vm from 'node:vm'
import { test } from '@japa/runner'
import { createKey, createLabel, createPublisher, operatorKey } from '#tests/support/fixtures'
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

/**
 * An n8n expression as the nodes here use them: one `={{ … }}` of JavaScript
 * over `$json`, with the globals n8n's expressions allow (Uint8Array, JSON).
 */
function expression(value: unknown, json: Record<string, unknown>) {
  if (typeof value !== 'string' || !value.startsWith('=')) return value
  const match = /^=\{\{(.*)\}\}$/s.exec(value)
  if (!match) throw new Error(`not a whole expression: ${value}`)
  return vm.runInNewContext(`(${match[1]})`, { $json: json, Uint8Array, JSON, Array, String })
}

/** The IF node's (v2) conditions: the operators this template uses, combined with `and`. */
function conditionsHold(conditions: any, json: Record<string, unknown>) {
  const results = conditions.conditions.map((condition: any) => {
    const left = expression(condition.leftValue, json)
    const right = expression(condition.rightValue, json)
    const { type, operation } = condition.operator
    if (type === 'array' && operation === 'contains') return (left as unknown[]).includes(right)
    if (type === 'boolean' && operation === 'true') return left === true
    if (type === 'string' && operation === 'equals') return left === right
    throw new Error(`operator ${type}/${operation} is not emulated`)
  })
  check.equal(conditions.combinator, 'and')
  return results.every(Boolean)
}

/**
 * Runs the n8n workflow from its Webhook node as n8n would, node by node along
 * `connections`: the Code node's own JavaScript (with `$input`, `$env` and
 * `this.helpers.getBinaryDataBuffer`), the Crypto node as its source computes
 * (`createHmac(type, secret).update(value).digest(encoding)`, read from the
 * node's parameters), the IF node, the Set node (raw JSON), Stop and Error, and
 * the Switch. Returns the Switch output the delivery reached, and the item.
 */
async function runN8nWorkflow(
  workflow: any,
  secret: string,
  delivery: ReturnType<typeof signedDelivery>
) {
  const byName = new Map(workflow.nodes.map((node: any) => [node.name, node]))
  const start = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.webhook')
  check.equal(start.parameters.options.rawBody, true)
  const raw = Buffer.from(delivery.body)
  let item: any = { json: { headers: delivery.headers, body: {} }, binary: { data: {} } }
  let node: any = start
  for (;;) {
    let output = 0
    if (node.type === 'n8n-nodes-base.code') {
      const context = {
        $input: { first: () => item },
        $env: { LEADGATE_WEBHOOK_SECRET: secret },
        Buffer,
        helpers: {
          getBinaryDataBuffer: async (index: number, property: string) => {
            check.equal(index, 0)
            check.equal(property, 'data')
            return raw
          },
        },
      }
      const run = vm.runInNewContext(
        `(async function () {${node.parameters.jsCode}\n})`,
        context
      ) as () => Promise<any[]>
      item = (await run.call(context))[0]
    } else if (node.type === 'n8n-nodes-base.crypto') {
      const params = node.parameters
      check.equal(params.action, 'hmac')
      check.equal(params.binaryData, false)
      const value = expression(params.value, item.json) as string
      const key = expression(params.secret, item.json) as Uint8Array
      const mac = createHmac(params.type, key).update(value).digest(params.encoding)
      item = { json: { ...item.json, [params.dataPropertyName]: mac } }
    } else if (node.type === 'n8n-nodes-base.if') {
      output = conditionsHold(node.parameters.conditions, item.json) ? 0 : 1
    } else if (node.type === 'n8n-nodes-base.stopAndError') {
      throw new Error(node.parameters.errorMessage)
    } else if (node.type === 'n8n-nodes-base.set') {
      check.equal(node.parameters.mode, 'raw')
      item = { json: JSON.parse(expression(node.parameters.jsonOutput, item.json) as string) }
    } else if (node.type === 'n8n-nodes-base.switch') {
      const rules = node.parameters.rules.values
      const index = rules.findIndex((rule: any) => conditionsHold(rule.conditions, item.json))
      return { output: index === -1 ? null : rules[index].outputKey, item }
    } else if (node.type !== 'n8n-nodes-base.webhook') {
      throw new Error(`node ${node.type} is not emulated`)
    }
    const next = workflow.connections[node.name]?.main?.[output]?.[0]
    if (!next) return { output: null, item }
    node = byName.get(next.node)
  }
}

type MakeModules = Record<number, Record<string, unknown>>

/**
 * Make's formula language, exactly the part the blueprint uses: module
 * references (`1.value`, `` 1.`webhook-id` ``), text and number literals,
 * `now`, `+`/`-` on numbers, `.property` on a result, and the functions
 * `get`, `map`, `replace`, `sha256`, `parseJSON`, `formatDate(…; "X")`, each
 * as Make documents it (`sha256(text; encoding; key; key encoding)` is an
 * HMAC when a key is given, the key read in its key encoding).
 */
function makeFormula(source: string, modules: MakeModules, now: Date) {
  let at = 0
  const fail = (why: string): never => {
    throw new Error(`${why} at ${at} in ${source}`)
  }
  const skip = () => {
    while (source[at] === ' ') at++
  }
  const functions: Record<string, (...args: any[]) => unknown> = {
    get: (array: unknown[], index: number) => array[Number(index) - 1],
    map: (array: any[], key: string, filterKey?: string, values?: string) =>
      array
        .filter((entry) => filterKey === undefined || values!.split(',').includes(entry[filterKey]))
        .map((entry) => entry[key]),
    replace: (text: string, search: string, replacement: string) =>
      String(text).replaceAll(search, replacement),
    sha256: (text: string, encoding = 'hex', key?: string, keyEncoding = 'text') => {
      const digest =
        key === undefined
          ? createHash('sha256')
          : createHmac(
              'sha256',
              Buffer.from(key, (keyEncoding === 'text' ? 'utf8' : keyEncoding) as BufferEncoding)
            )
      return digest.update(String(text), 'utf8').digest(encoding as 'hex' | 'base64')
    },
    parseJSON: (text: string) => JSON.parse(text),
    formatDate: (date: Date, format: string) => {
      check.equal(format, 'X')
      return String(Math.floor(date.getTime() / 1000))
    },
  }
  const primary = (): unknown => {
    skip()
    if (source[at] === '"') {
      const end = source.indexOf('"', at + 1)
      const text = source.slice(at + 1, end)
      at = end + 1
      return text
    }
    const reference = /^(\d+)\.(?:`([^`]+)`|([A-Za-z_][\w]*))/.exec(source.slice(at))
    if (reference) {
      at += reference[0].length
      return modules[Number(reference[1])][reference[2] ?? reference[3]]
    }
    const number = /^\d+(?:\.\d+)?/.exec(source.slice(at))
    if (number) {
      at += number[0].length
      return Number(number[0])
    }
    const name = /^[A-Za-z_]\w*/.exec(source.slice(at))?.[0] ?? fail('unexpected')
    at += name.length
    if (name === 'now' && source[at] !== '(') return now
    if (source[at] !== '(') fail(`unknown name ${name}`)
    at++
    const args: unknown[] = []
    skip()
    while (source[at] !== ')') {
      args.push(sum())
      skip()
      if (source[at] === ';') at++
      else if (source[at] !== ')') fail('expected ; or )')
    }
    at++
    const fn = functions[name] ?? fail(`function ${name} is not emulated`)
    return fn(...args)
  }
  const postfix = () => {
    let value: any = primary()
    while (source[at] === '.') {
      const property = /^\.([A-Za-z_]\w*)/.exec(source.slice(at)) ?? fail('bad property')
      at += property[0].length
      value = value[property[1]]
    }
    return value
  }
  const sum = (): unknown => {
    let value: any = postfix()
    for (skip(); source[at] === '+' || source[at] === '-'; skip()) {
      const operator = source[at++]
      const right = Number(postfix())
      value = operator === '+' ? Number(value) + right : Number(value) - right
    }
    return value
  }
  const value = sum()
  skip()
  if (at !== source.length) fail('trailing input')
  return value
}

/** A mapped field: text with `{{formula}}` parts, as Make fills it in. */
function makeField(field: string, modules: MakeModules, now: Date) {
  const parts = field.split(/\{\{(.*?)\}\}/s)
  if (parts.length === 3 && parts[0] === '' && parts[2] === '')
    return makeFormula(parts[1], modules, now)
  return parts
    .map((part, index) => (index % 2 === 1 ? String(makeFormula(part, modules, now)) : part))
    .join('')
}

/** A Make filter: groups OR'd, the conditions of a group AND'd; the operators used here. */
function makeFilterPasses(filter: any, modules: MakeModules, now: Date) {
  return filter.conditions.some((group: any[]) =>
    group.every((condition) => {
      const a = makeField(condition.a, modules, now)
      const b = makeField(condition.b, modules, now)
      if (condition.o === 'text:equal') return String(a) === String(b)
      if (condition.o === 'text:contain') return String(a).includes(String(b))
      if (condition.o === 'number:greater') return Number(a) > Number(b)
      if (condition.o === 'number:less') return Number(a) < Number(b)
      throw new Error(`operator ${condition.o} is not emulated`)
    })
  )
}

/**
 * Runs the blueprint on a delivery as Make would: the custom webhook's
 * bundle (raw body in `value`, headers in `__IMTHEADERS__`), each Set
 * variable module in order (the secret pasted into module 2, as the
 * integrator does), then the router's "signature verified" filter and the
 * route whose filter matches. Null: the filter stopped the bundle.
 */
function runMakeBlueprint(
  blueprint: any,
  secret: string,
  delivery: ReturnType<typeof signedDelivery>,
  now = new Date()
) {
  const modules: MakeModules = {
    1: {
      value: delivery.body,
      __IMTHEADERS__: Object.entries(delivery.headers).map(([name, value]) => ({ name, value })),
    },
  }
  for (const module of blueprint.flow) {
    if (module.module === 'gateway:CustomWebHook') continue
    if (module.module === 'util:SetVariable2') {
      const { name, value } = module.mapper
      modules[module.id] = { [name]: name === 'secret' ? secret : makeField(value, modules, now) }
      continue
    }
    check.equal(module.module, 'builtin:BasicRouter')
    if (!makeFilterPasses(module.filter, modules, now)) return null
    const route = module.routes.find((entry: any) => makeFilterPasses(entry.filter, modules, now))
    return route ? (route.filter.name as string) : null
  }
  return null
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
      'n8n-nodes-base.crypto',
      'n8n-nodes-base.if',
      'n8n-nodes-base.switch',
      'n8n-nodes-base.httpRequest',
    ])
    // The MAC is the Crypto node's, with its own parameters: the Code node only prepares.
    const hmac = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.crypto')
    assert.containsSubset(hmac.parameters, { action: 'hmac', type: 'SHA256', encoding: 'base64' })
    const code = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.code')
    assert.notMatch(code.parameters.jsCode, /createHmac|require\(/)
    const http = workflow.nodes.find((node: any) => node.type === 'n8n-nodes-base.httpRequest')
    assert.match(http.parameters.url, /\/v1\/requests$/)

    const secret = newSigningSecret()
    const delivery = signedDelivery(secret)
    const verified = await runN8nWorkflow(workflow, secret, delivery)
    assert.equal(verified.output, 'lead.received')
    assert.deepEqual(verified.item.json, JSON.parse(delivery.body))
    assert.notProperty(verified.item.json, 'key_bytes')

    // During a rotation the header holds two signatures; the current secret's is the second.
    const previous = newSigningSecret()
    const rotated = {
      ...delivery,
      headers: signatureHeaders(
        [previous, secret],
        delivery.headers['webhook-id'],
        Number(delivery.headers['webhook-timestamp']),
        delivery.body
      ),
    }
    assert.equal((await runN8nWorkflow(workflow, secret, rotated)).output, 'lead.received')

    await assert.rejects(
      () => runN8nWorkflow(workflow, newSigningSecret(), delivery),
      /did not verify/
    )
    const tampered = { ...delivery, body: delivery.body.replace('accepted', 'rejected') }
    await assert.rejects(() => runN8nWorkflow(workflow, secret, tampered), /did not verify/)
    const stale = signedDelivery(secret, Math.floor(Date.now() / 1000) - 3600)
    await assert.rejects(() => runN8nWorkflow(workflow, secret, stale), /did not verify/)
    const unsigned = { ...delivery, headers: { ...delivery.headers, 'webhook-signature': '' } }
    await assert.rejects(() => runN8nWorkflow(workflow, secret, unsigned), /did not verify/)
  })

  test("the Make blueprint's formula verifies a signed delivery and its filter stops a forged, tampered or stale one", async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const response = await client
      .get(`/v1/labels/${label.id}/templates/make`)
      .bearerToken(await operatorKey())
    response.assertStatus(200)
    const blueprint = response.body()
    const secret = newSigningSecret()
    const delivery = signedDelivery(secret)

    // The formula alone gives exactly the signature Leadgate's signer put in the header.
    const expected = blueprint.flow.find((module: any) => module.mapper?.name === 'expected')
    assert.match(expected.mapper.value, /sha256\(/)
    const modules: Record<number, Record<string, unknown>> = {
      1: {
        value: delivery.body,
        __IMTHEADERS__: Object.entries(delivery.headers).map(([name, value]) => ({ name, value })),
      },
      2: { secret },
    }
    const content = blueprint.flow.find((module: any) => module.mapper?.name === 'signed_content')
    modules[3] = { signed_content: makeField(content.mapper.value, modules, new Date()) }
    assert.equal(
      `v1,${makeField(expected.mapper.value, modules, new Date())}`,
      delivery.headers['webhook-signature']
    )

    assert.equal(runMakeBlueprint(blueprint, secret, delivery), 'lead.received')
    assert.isNull(runMakeBlueprint(blueprint, newSigningSecret(), delivery))
    const tampered = { ...delivery, body: delivery.body.replace('accepted', 'rejected') }
    assert.isNull(runMakeBlueprint(blueprint, secret, tampered))
    const stale = signedDelivery(secret, Math.floor(Date.now() / 1000) - 3600)
    assert.isNull(runMakeBlueprint(blueprint, secret, stale))
    const future = signedDelivery(secret, Math.floor(Date.now() / 1000) + 3600)
    assert.isNull(runMakeBlueprint(blueprint, secret, future))
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

  test("every template's request to POST /v1/requests, its fields filled in, is an accepted lead: consent is its wording and moment", async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await operatorKey()
    const publisher = await createPublisher({ label: label.slug })
    publisher.merge({ status: 'live', deliveryMethods: ['api'] })
    await publisher.save()
    const { secret: key } = await createKey({ publisherId: publisher.id })
    const filled: Record<string, string> = {
      '{{name}}': 'Eva Smit',
      '{{email}}': `eva.${Date.now()}@example.nl`,
      '{{phone}}': '+31612345678',
      '{{campaign}}': 'winter',
      '{{consent text}}': 'I agree that Demo Energy may call me about my energy contract.',
      '{{consent time}}': new Date(Date.now() - 60_000).toISOString(),
    }
    const requests = [
      (await client.get(`/v1/labels/${label.id}/templates/zapier`).bearerToken(operator)).body()
        .reverse,
      (await client.get(`/v1/labels/${label.id}/templates/make`).bearerToken(operator)).body()
        .metadata.reverse,
    ]
    for (const [index, request] of requests.entries()) {
      const body = JSON.parse(
        JSON.stringify(request.body).replace(/\{\{[^}]+\}\}/g, (slot) => filled[slot] ?? slot)
      )
      body.contact.email = `eva.${index}.${filled['{{email}}']}`
      const answer = await client.post('/v1/requests').bearerToken(key).json(body)
      assert.equal(answer.status(), 201, answer.text())
      assert.equal(answer.body().status, 'accepted')
      assert.equal(answer.body().quality_check.consent, 'valid')
    }
    // Without its wording, or with `given: false`, it is no consent.
    const { body } = requests[0]
    const bare = await client
      .post('/v1/requests')
      .bearerToken(key)
      .json({
        ...body,
        contact: { ...body.contact, email: 'x@example.nl', name: 'X', phone: '+31612345679' },
        consent: { timestamp: filled['{{consent time}}'] },
      })
    assert.equal(bare.status(), 422)
    const refused = await client
      .post('/v1/requests')
      .bearerToken(key)
      .json({
        ...body,
        contact: { ...body.contact, email: 'y@example.nl', name: 'Y', phone: '+31612345670' },
        consent: {
          given: false,
          text: filled['{{consent text}}'],
          timestamp: filled['{{consent time}}'],
        },
      })
    assert.equal(refused.status(), 422)
  })
})
