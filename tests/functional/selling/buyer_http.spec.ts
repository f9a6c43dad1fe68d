import { test } from '@japa/runner'
import { Webhook } from 'standardwebhooks'
import { DOMParser } from '@xmldom/xmldom'
import { newSigningSecret } from '#services/webhooks/signing'
import { HttpSender } from '#services/webhooks/http_sender'
import { AddressPolicy } from '#services/webhooks/ssrf_guard'
import { BuyerTransport, type HttpDestination } from '#services/selling/buyer_http'
import { SAMPLE_LEAD, SAMPLE_PING_LEAD } from '#services/selling/buyer_lead'
import type {
  DestinationSecrets,
  HttpDestinationConfig,
  PingConfig,
} from '#services/selling/http_destination'
import { type Answer, Receiver, type Received } from '#tests/support/webhooks'

const SIGNING_SECRET = newSigningSecret()
const JSON_TEMPLATE =
  '{"email": "{{ contact.email }}", "first": "{{ contact.name | first_name }}", "phone": "{{ contact.phone | e164 }}", "product": "{{ attributes.product | map: "solar:SOL" }}", "bid": {{ bid_id | json }}}'
const ACCEPT_JSON: HttpDestinationConfig['response'] = {
  accepted: { status: [200, 201], path: '$.status', equals: 'accepted' },
  rejected: { path: '$.status', equals: 'rejected' },
  duplicate: { path: '$.status', equals: 'duplicate' },
  reason_path: '$.reason',
  buyer_lead_id_path: '$.id',
  price_path: '$.price',
}

const json = (body: unknown, status = 200): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

let transport: BuyerTransport
let clock = Date.now()
const receivers: Receiver[] = []

async function buyer(behaviour: (request: Received, index: number) => Answer) {
  const receiver = await Receiver.start(behaviour)
  receivers.push(receiver)
  return receiver
}

function destination(
  url: string,
  http: Partial<HttpDestinationConfig> = {},
  secrets: DestinationSecrets = {}
): HttpDestination {
  return {
    id: 'destination-1',
    http: {
      method: 'POST',
      url,
      content_type: 'json',
      template: JSON_TEMPLATE,
      response: ACCEPT_JSON,
      timeout_ms: 2000,
      ...http,
    },
    secrets,
    signingSecret: SIGNING_SECRET,
  }
}

/**
 * What a buyer does with the signature, with the Standard Webhooks library: `verify` for a
 * JSON body (it parses the body once checked), `sign` and compare for any other; and the hex header.
 */
function verifySignature(assert: any, request: Received, payload: string) {
  const webhook = new Webhook(SIGNING_SECRET)
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  }
  if (request.json) assert.exists(webhook.verify(payload, headers))
  const timestamp = new Date(Number(headers['webhook-timestamp']) * 1000)
  assert.equal(
    headers['webhook-signature'],
    webhook.sign(headers['webhook-id'], timestamp, payload)
  )
  assert.isBelow(Math.abs(Date.now() - timestamp.getTime()), 5 * 60_000)
  const mac = String(request.headers['webhook-signature']).slice('v1,'.length)
  assert.equal(
    request.headers['x-leadgate-signature'],
    `sha256=${Buffer.from(mac, 'base64').toString('hex')}`
  )
}

function setupTransport(group: { each: { setup: (fn: () => any) => void } }) {
  group.each.setup(() => {
    clock = Date.now()
    transport = new BuyerTransport({ clock: () => clock })
    return async () => {
      transport.close()
      await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
    }
  })
}

test.group('Selling / posting into a buyer’s system', (group) => {
  setupTransport(group)

  test('a JSON post is rendered, signed, sent and read as accepted', async ({ assert }) => {
    const system = await buyer(() => json({ status: 'accepted', id: 'B-1', price: 1875 }, 201))
    const result = await transport.post(destination(system.url), SAMPLE_LEAD, {
      attemptId: 'attempt-1',
    })

    assert.deepInclude(result, {
      outcome: 'accepted',
      reason: null,
      buyer_lead_id: 'B-1',
      price_cents: 1875,
      error_code: null,
    })
    const [received] = system.received
    assert.equal(received.method, 'POST')
    assert.equal(received.headers['content-type'], 'application/json')
    assert.equal(received.headers['webhook-id'], 'attempt-1')
    assert.deepEqual(received.json, {
      email: 'jane@example.com',
      first: 'Jane',
      phone: '+447700900123',
      product: 'SOL',
      bid: 'sample-bid-1',
    })
    verifySignature(assert, received, received.body)
    assert.equal(result.request.body, received.body)
    assert.equal(result.request.url, system.url)
    assert.equal(result.response?.status, 201)
    assert.include(result.response!.body, 'B-1')
    assert.isAtLeast(result.duration_ms, 0)
  })

  test('rejected and duplicate answers carry the buyer’s reason', async ({ assert }) => {
    const system = await buyer((_, index) =>
      index === 0
        ? json({ status: 'rejected', reason: 'Outside our area' })
        : json({ status: 'duplicate', reason: 'Seen on 2026-11-01', id: 'B-0' })
    )
    const rejected = await transport.post(destination(system.url), SAMPLE_LEAD)
    assert.deepInclude(rejected, { outcome: 'rejected', reason: 'Outside our area' })
    const duplicate = await transport.post(destination(system.url), SAMPLE_LEAD)
    assert.deepInclude(duplicate, {
      outcome: 'duplicate',
      reason: 'Seen on 2026-11-01',
      buyer_lead_id: 'B-0',
    })
  })

  test('an XML post is answered in XML and read by XPath', async ({ assert }) => {
    const system = await buyer((request) => {
      const document = new DOMParser().parseFromString(request.body, 'text/xml')
      const email = document.getElementsByTagName('email')[0]?.textContent
      return {
        status: 200,
        headers: { 'content-type': 'text/xml' },
        body: `<result><code>${email === 'jane@example.com' ? 'OK' : 'BAD'}</code><lead ref="X-7"/><price>9.99</price></result>`,
      }
    })
    const result = await transport.post(
      destination(system.url, {
        content_type: 'xml',
        template: '<lead><email>{{ contact.email }}</email><name>{{ contact.name }}</name></lead>',
        response: {
          accepted: { path: '/result/code', equals: 'OK' },
          buyer_lead_id_path: '/result/lead/@ref',
          price_path: '/result/price',
          price_unit: 'currency',
        },
      }),
      SAMPLE_LEAD
    )
    assert.equal(system.received[0].headers['content-type'], 'application/xml')
    assert.deepInclude(result, { outcome: 'accepted', buyer_lead_id: 'X-7', price_cents: 999 })
  })

  test('a form post is URL-encoded and read by a regular expression', async ({ assert }) => {
    const system = await buyer((request) => {
      const fields = new URLSearchParams(request.body)
      return {
        status: 200,
        body: fields.get('name') === 'Jane Q. Example' ? 'SUCCESS lead=771' : 'FAIL',
      }
    })
    const result = await transport.post(
      destination(system.url, {
        content_type: 'form',
        template: 'name={{ contact.name }}&email={{ contact.email }}',
        response: { accepted: { matches: '^SUCCESS' }, rejected: { matches: '^FAIL' } },
      }),
      SAMPLE_LEAD
    )
    assert.equal(system.received[0].headers['content-type'], 'application/x-www-form-urlencoded')
    assert.equal(result.outcome, 'accepted')
  })

  test('a GET carries the template as its query, and the signature covers it', async ({
    assert,
  }) => {
    const system = await buyer(() => json({ status: 'accepted', id: 'G-1' }))
    const result = await transport.post(
      destination(`${system.url}?source=leadgate`, {
        method: 'GET',
        template: 'email={{ contact.email }}&date={{ matched_at | date: "YYYY-MM-DD" }}',
      }),
      SAMPLE_LEAD
    )
    const [received] = system.received
    assert.equal(received.method, 'GET')
    assert.equal(received.body, '')
    assert.isUndefined(received.headers['content-type'])
    const query = received.url.slice(received.url.indexOf('?') + 1)
    assert.deepEqual(Object.fromEntries(new URLSearchParams(query)), {
      source: 'leadgate',
      email: 'jane@example.com',
      date: '2026-11-02',
    })
    verifySignature(assert, received, query)
    assert.deepInclude(result, { outcome: 'accepted', buyer_lead_id: 'G-1' })
    assert.equal(result.request.body, '')
  })

  test('headers in the config are rendered and sent', async ({ assert }) => {
    const system = await buyer(() => json({ status: 'accepted' }))
    await transport.post(
      destination(system.url, {
        headers: { 'X-Campaign': '{{ provenance.campaign }}', 'X-Static': 'v2' },
      }),
      SAMPLE_LEAD
    )
    assert.equal(system.received[0].headers['x-campaign'], 'sample-campaign')
    assert.equal(system.received[0].headers['x-static'], 'v2')
  })
})

test.group('Selling / authenticating to a buyer', (group) => {
  setupTransport(group)

  const cases: {
    name: string
    auth: HttpDestinationConfig['auth']
    secrets: DestinationSecrets
    check: (request: Received) => boolean
    shown: (result: { request: { url: string; headers: Record<string, string> } }) => boolean
  }[] = [
    {
      name: 'basic',
      auth: { type: 'basic', username: 'acme' },
      secrets: { password: 'p@ss:word' },
      check: (request) =>
        request.headers.authorization ===
        `Basic ${Buffer.from('acme:p@ss:word').toString('base64')}`,
      shown: (result) => result.request.headers.authorization === 'Basic ••••',
    },
    {
      name: 'bearer',
      auth: { type: 'bearer' },
      secrets: { token: 'tok-123' },
      check: (request) => request.headers.authorization === 'Bearer tok-123',
      shown: (result) => result.request.headers.authorization === 'Bearer ••••',
    },
    {
      name: 'header',
      auth: { type: 'header', name: 'X-Api-Key' },
      secrets: { value: 'key-456' },
      check: (request) => request.headers['x-api-key'] === 'key-456',
      shown: (result) => result.request.headers['x-api-key'] === '••••',
    },
    {
      name: 'query',
      auth: { type: 'query', name: 'api_key' },
      secrets: { value: 'q&789' },
      check: (request) => new URL(request.url, 'http://x').searchParams.get('api_key') === 'q&789',
      shown: (result) => result.request.url.endsWith('?api_key=••••'),
    },
  ]

  for (const { name, auth, secrets, check, shown } of cases) {
    test(`${name}: the buyer receives its credentials; the shown request masks them`, async ({
      assert,
    }) => {
      const system = await buyer((request) =>
        check(request) ? json({ status: 'accepted' }) : json({ error: 'unauthorised' }, 401)
      )
      const result = await transport.post(destination(system.url, { auth }, secrets), SAMPLE_LEAD)
      assert.equal(result.outcome, 'accepted')
      assert.isTrue(shown(result))
      const secret = Object.values(secrets)[0]!
      assert.notInclude(JSON.stringify(result), secret)
      assert.notInclude(JSON.stringify(result), encodeURIComponent(secret))
    })
  }

  test('a missing secret is an error before anything is sent', async ({ assert }) => {
    const system = await buyer(() => json({ status: 'accepted' }))
    const result = await transport.post(
      destination(system.url, { auth: { type: 'bearer' } }),
      SAMPLE_LEAD
    )
    assert.deepInclude(result, { outcome: 'error', error_code: 'missing_secret' })
    assert.lengthOf(system.received, 0)
  })
})

test.group('Selling / OAuth 2.0 client credentials', (group) => {
  setupTransport(group)

  /** A token endpoint that checks the client's credentials and numbers its tokens. */
  async function tokenEndpoint(expiresIn = 3600) {
    let issued = 0
    return buyer((request) => {
      // RFC 6749 §2.3.1: each half form-encoded, then Basic.
      const basic = String(request.headers.authorization).replace(/^Basic /, '')
      const [id, secret] = Buffer.from(basic, 'base64')
        .toString()
        .split(':')
        .map(decodeURIComponent)
      const form = new URLSearchParams(request.body)
      if (
        id !== 'client-1' ||
        secret !== 's3cret+' ||
        form.get('grant_type') !== 'client_credentials'
      ) {
        return json({ error: 'invalid_client' }, 401)
      }
      return json({
        access_token: `token-${form.get('scope')}-${++issued}`,
        token_type: 'Bearer',
        expires_in: expiresIn,
      })
    })
  }

  const oauthDestination = (system: Receiver, tokens: Receiver) =>
    destination(
      system.url,
      {
        auth: {
          type: 'oauth2',
          token_url: tokens.url,
          client_id: 'client-1',
          scope: 'leads',
        },
      },
      { client_secret: 's3cret+' }
    )

  test('one token request serves many posts, until the token expires', async ({ assert }) => {
    const tokens = await tokenEndpoint(3600)
    const system = await buyer((request) =>
      String(request.headers.authorization).startsWith('Bearer token-leads-')
        ? json({ status: 'accepted' })
        : json({}, 401)
    )
    const target = oauthDestination(system, tokens)
    const results = await Promise.all(
      Array.from({ length: 8 }, () => transport.post(target, SAMPLE_LEAD))
    )
    assert.deepEqual(new Set(results.map((result) => result.outcome)), new Set(['accepted']))
    assert.lengthOf(tokens.received, 1)
    assert.equal(new URLSearchParams(tokens.received[0].body).get('scope'), 'leads')
    assert.equal(results[0].request.headers.authorization, 'Bearer ••••')
    assert.notInclude(JSON.stringify(results), 'token-leads')

    await transport.post(target, SAMPLE_LEAD)
    assert.lengthOf(tokens.received, 1)
    // An hour later, the token (less its margin) has expired.
    clock += 3600_000
    await transport.post(target, SAMPLE_LEAD)
    assert.lengthOf(tokens.received, 2)
    assert.equal(system.received.at(-1)!.headers.authorization, 'Bearer token-leads-2')
  })

  test('a 401 drops the token once and retries the post once with a new one', async ({
    assert,
  }) => {
    const tokens = await tokenEndpoint()
    // The buyer revoked the first token early.
    const system = await buyer((request) =>
      request.headers.authorization === 'Bearer token-leads-1'
        ? json({ error: 'revoked' }, 401)
        : json({ status: 'accepted' })
    )
    const result = await transport.post(oauthDestination(system, tokens), SAMPLE_LEAD)
    assert.equal(result.outcome, 'accepted')
    assert.lengthOf(tokens.received, 2)
    assert.lengthOf(system.received, 2)

    const refusing = await buyer(() => json({ error: 'nope' }, 401))
    const refused = await transport.post(oauthDestination(refusing, tokens), SAMPLE_LEAD)
    assert.deepInclude(refused, { outcome: 'error', reason: 'http_401' })
    assert.lengthOf(refusing.received, 2)
  })

  test('a token endpoint that refuses the client is an error, secret unshown', async ({
    assert,
  }) => {
    const tokens = await tokenEndpoint()
    const system = await buyer(() => json({ status: 'accepted' }))
    const target = oauthDestination(system, tokens)
    target.secrets = { client_secret: 'wrong-secret' }
    const result = await transport.post(target, SAMPLE_LEAD)
    assert.deepInclude(result, { outcome: 'error', error_code: 'oauth_token_failed' })
    assert.lengthOf(system.received, 0)
    assert.notInclude(JSON.stringify(result), 'wrong-secret')
  })
})

test.group('Selling / buyers that misbehave', (group) => {
  setupTransport(group)

  test('a buyer that hangs is a timeout within the destination’s timeout', async ({ assert }) => {
    const system = await buyer(() => ({ hold: true }))
    const result = await transport.post(destination(system.url, { timeout_ms: 300 }), SAMPLE_LEAD)
    assert.deepInclude(result, { outcome: 'timeout', error_code: 'timeout', response: null })
    assert.isAtLeast(result.duration_ms, 290)
    assert.isBelow(result.duration_ms, 5000)
  })

  test('the sale’s deadline shortens the timeout', async ({ assert }) => {
    const system = await buyer(() => ({ hold: true }))
    const result = await transport.post(
      destination(system.url, { timeout_ms: 20_000 }),
      SAMPLE_LEAD,
      {
        deadlineMs: 200,
      }
    )
    assert.equal(result.outcome, 'timeout')
    assert.isBelow(result.duration_ms, 5000)
  })

  test('garbage is an error, never a throw', async ({ assert }) => {
    const system = await buyer(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '\u0000\uFFFD{"status": "acc<<\u0007',
    }))
    const result = await transport.post(destination(system.url), SAMPLE_LEAD)
    assert.deepInclude(result, { outcome: 'error', reason: 'unrecognised_answer' })
    assert.notInclude(result.response!.body, '\u0000')
  })

  test('a redirect is not followed', async ({ assert }) => {
    const elsewhere = await buyer(() => json({ status: 'accepted' }))
    const system = await buyer(() => ({ status: 307, headers: { location: elsewhere.url } }))
    const result = await transport.post(destination(system.url), SAMPLE_LEAD)
    assert.deepInclude(result, { outcome: 'error', reason: 'redirect', error_code: 'redirect' })
    assert.lengthOf(elsewhere.received, 0)
  })

  test('a 50 MB answer is cut at 256 KB: bounded memory and time', async ({ assert }) => {
    const fifty = 50 * 1024 * 1024
    const system = await buyer(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      streamBytes: fifty,
    }))
    const result = await transport.post(destination(system.url), SAMPLE_LEAD)
    assert.deepInclude(result, { outcome: 'error', error_code: 'answer_too_large' })
    // What was kept to show is the excerpt, 20 KB.
    assert.equal(result.response!.body.length, 20 * 1024)
    // The socket was destroyed: what left the buyer's server is a sliver of the 50 MB (socket buffers).
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.isBelow(system.streamed, 8 * 1024 * 1024)
  })

  test('the webhooks’ sender reads no more than its bound of an answer', async ({ assert }) => {
    const system = await buyer(() => ({ status: 200, streamBytes: 50 * 1024 * 1024 }))
    const sender = new HttpSender({
      connectTimeoutMs: 1000,
      totalTimeoutMs: 5000,
      excerptBytes: 20 * 1024,
      userAgent: 'test',
      policy: new AddressPolicy(['127.0.0.1/32']),
    })
    const before = process.memoryUsage().arrayBuffers
    const answer = await sender.request(system.url, {
      headers: {},
      body: '{}',
      maxBytes: 256 * 1024,
    })
    sender.close()
    assert.isTrue(answer.truncated)
    assert.equal(answer.body.length, 256 * 1024)
    // One socket read past the bound at most.
    assert.isAtMost(answer.bytesRead, 256 * 1024 + 64 * 1024)
    assert.isBelow(process.memoryUsage().arrayBuffers - before, 16 * 1024 * 1024)
  })

  test('a refused address is never dialled', async ({ assert }) => {
    const result = await transport.post(
      destination('http://169.254.169.254/latest/meta-data'),
      SAMPLE_LEAD
    )
    assert.deepInclude(result, { outcome: 'error', error_code: 'ssrf_refused' })
  })

  test('a template that fails at send time sends nothing', async ({ assert }) => {
    const system = await buyer(() => json({ status: 'accepted' }))
    const result = await transport.post(
      destination(system.url, { template: '{% for i in (1..100000000) %}x{% endfor %}' }),
      SAMPLE_LEAD
    )
    assert.deepInclude(result, { outcome: 'error', error_code: 'template_error' })
    assert.lengthOf(system.received, 0)
  })
})

test.group('Selling / pings', (group) => {
  setupTransport(group)

  const ping = (url: string, changes: Partial<PingConfig> = {}) =>
    destination(url.replace('/hooks', '/post'), {
      ping: {
        url,
        template: '{"zip": "{{ contact.postal_code }}", "product": "{{ attributes.product }}"}',
        bid_path: '$.bid',
        bid_id_path: '$.bid_id',
        expires_in_path: '$.ttl',
        ...changes,
      },
    })

  test('a bid in cents, with its id and expiry; the ping is signed', async ({ assert }) => {
    const system = await buyer(() => json({ bid: 1450, bid_id: 'b-9', ttl: 30 }))
    const result = await transport.ping(ping(system.url), SAMPLE_PING_LEAD)
    assert.deepInclude(result, {
      outcome: 'bid',
      bid_cents: 1450,
      bid_id: 'b-9',
      expires_in_seconds: 30,
      reason: null,
    })
    const [received] = system.received
    assert.equal(received.method, 'POST')
    assert.deepEqual(received.json, { zip: 'SW1A', product: 'solar' })
    verifySignature(assert, received, received.body)
  })

  test('a bid in currency units', async ({ assert }) => {
    const system = await buyer(() => json({ bid: '14.5', bid_id: 77 }))
    const result = await transport.ping(
      ping(system.url, { bid_unit: 'currency' }),
      SAMPLE_PING_LEAD
    )
    assert.deepInclude(result, {
      outcome: 'bid',
      bid_cents: 1450,
      bid_id: '77',
      expires_in_seconds: null,
    })
  })

  test('no bid: an empty answer, a null bid, a zero bid', async ({ assert }) => {
    const answers = [{ status: 204 }, json({ bid: null }), json({ bid: 0, bid_id: 'z' })]
    const system = await buyer((_, index) => answers[index])
    const reasons = []
    for (let index = 0; index < answers.length; index++) {
      reasons.push((await transport.ping(ping(system.url), SAMPLE_PING_LEAD)).reason)
    }
    assert.deepEqual(reasons, ['no_bid', 'no_bid', 'zero_bid'])
  })

  test('a buyer that does not answer within the ping timeout has not bid', async ({ assert }) => {
    const system = await buyer(() => ({ hold: true }))
    const result = await transport.ping(ping(system.url), SAMPLE_PING_LEAD)
    assert.deepInclude(result, { outcome: 'no_bid', reason: 'timeout' })
    assert.isAtLeast(result.duration_ms, 490)
    assert.isBelow(result.duration_ms, 3000)
  })

  test('a bid in the wrong shape is no bid, with the reason', async ({ assert }) => {
    const answers: Answer[] = [
      json({ bid: -100, bid_id: 'x' }),
      json({ bid: 'lots', bid_id: 'x' }),
      json({ bid: 1e12, bid_id: 'x' }),
      json({ bid: 12.5, bid_id: 'x' }),
      json({ bid: 100 }),
      json({ bid: 100, bid_id: 'x' }, 500),
      { status: 200, body: 'not json' },
    ]
    const system = await buyer((_, index) => answers[index])
    const reasons = []
    for (let index = 0; index < answers.length; index++) {
      const result = await transport.ping(ping(system.url), SAMPLE_PING_LEAD)
      assert.equal(result.outcome, 'no_bid')
      assert.isNull(result.bid_cents)
      reasons.push(result.reason)
    }
    assert.deepEqual(reasons, [
      'bad_bid',
      'bad_bid',
      'bad_bid',
      'bad_bid',
      'missing_bid_id',
      'http_500',
      'no_bid',
    ])
  })
})
