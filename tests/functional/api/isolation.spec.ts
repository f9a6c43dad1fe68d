import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import RoutingRule from '#models/routing_rule'
import OauthClientService from '#services/access/oauth_client_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { startUploadWorker } from '#services/uploads/upload_worker'
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
import Destination from '#models/destination'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'
import { createForm } from '#tests/support/forms'
import { csvOf, upload, uploadIn, validRow } from '#tests/functional/uploads/upload_support'
import {
  createRule,
  disableUnscopedRules,
  route as routeLead,
} from '#tests/functional/routing/routing_support'

/**
 * Every route that names a resource, called with another owner's credential:
 * publisher A's key on publisher B's resources, buyer keys on publisher
 * resources, publisher keys on buyers and routing rules. Each answers 404
 * problem+json (as for an id that does not exist) and changes nothing; the
 * operator reaching the same resource proves it was there.
 */
type World = Awaited<ReturnType<typeof buildWorld>>
type Case = {
  /** The resource another owner must not reach. */
  target: (world: World) => string
  callers: (world: World) => [string, string][]
  /**
   * The row to compare before and after, for routes that change things: a table of the public
   * schema, or one the world names (a table in publisher B's schema).
   */
  row?: string | ((world: World) => string)
  body?: Record<string, unknown>
  /** Builds the path when the id travels in the query string. */
  path?: (id: string) => string
  /** Who proves the resource was there, when the operator does not act on it: its owner. */
  reachedBy?: (world: World) => string
}

async function buildWorld(client: any) {
  const operator = await operatorKey()
  const label = await createLabel()
  const publisherA = await createPublisher()
  const keyA = (await createKey({ publisherId: publisherA.id })).secret
  const { publisher: publisherB, key: keyB } = await livePublisher()
  const [buyerX, buyerY] = [await createBuyer(), await createBuyer()]
  const keyX = (await createKey({ buyerId: buyerX.id })).secret
  const rule = await RoutingRule.create({
    buyerId: buyerY.id,
    labelIds: [label.id],
    publisherIds: [publisherB.id],
    criteria: [],
    priceCents: 2000,
    payoutCents: 1200,
    currency: 'EUR',
    caps: {},
    schedule: null,
    priority: 0,
    weight: 1,
    enabled: true,
  })
  const apiKeyB = (await createKey({ publisherId: publisherB.id })).apiKey
  const clients = await app.container.make(OauthClientService)
  const { client: clientB } = await clients.create(SYSTEM_OPERATOR, {
    name: unique('client'),
    publisher_id: publisherB.id,
    permissions: ['read'],
    environment: 'live',
  })
  const userB = await User.create({
    email: `${unique('user')}@publisher.example`,
    password: 'a-long-enough-password',
    role: 'publisher_user',
    publisherId: publisherB.id,
    permissions: ['read'],
  })

  // Created without a password: invited by e-mail, so its invitation can be resent.
  const invitedUserB: string = (
    await fixture(
      client
        .post('/v1/users')
        .bearerToken(keyB)
        .json({
          email: `${unique('invited')}@publisher.example`,
          role: 'publisher_user',
          publisher_id: publisherB.id,
          permissions: ['read'],
        })
    )
  ).id

  // B's endpoint is subscribed before B's lead arrives, so the lead leaves a delivery behind.
  const endpointB: string = (
    await fixture(
      client
        .post('/v1/webhook-endpoints')
        .bearerToken(keyB)
        .json({ url: 'http://127.0.0.1:9/hooks', events: ['lead.received'] })
    )
  ).id
  const leadB: string = (
    await fixture(client.post('/v1/leads').bearerToken(keyB).json(leadBody(publisherB.slug)))
  ).id
  const [deliveryB] = (
    await fixture(client.get(`/v1/webhook-endpoints/${endpointB}/deliveries`).bearerToken(keyB))
  ).data
  // A lead held for review: under these rules an invalid phone flags it.
  publisherB.qualityRules = { phone: { action: 'flag' } }
  await publisherB.save()
  const flaggedB: string = (
    await fixture(
      client
        .post('/v1/leads')
        .bearerToken(keyB)
        .json(leadBody(publisherB.slug, { contact: { phone: '12345' } }))
    )
  ).id
  // Two of B's leads sold to buyer Y: one to dispute, one disputed already.
  await disableUnscopedRules()
  await createRule({ buyerId: buyerY.id, publisherIds: [publisherB.id], priority: 1000 })
  const keyY = (await createKey({ buyerId: buyerY.id })).secret
  // Buyer Y is prepaid (and paid up), so the operator's top-up reaches it.
  await db.table('buyer_funds').insert({
    buyer_id: buyerY.id,
    currency: 'EUR',
    mode: 'prepaid',
    balance_cents: 10_000_000,
    updated_at: new Date(),
  })
  const soldB = await soldLeadOf(client, publisherB, keyB)
  const disputedB = await soldLeadOf(client, publisherB, keyB)
  const disputeB: string = (
    await fixture(
      client.post(`/v1/leads/${disputedB}/disputes`).bearerToken(keyY).json({ reason: 'fraud' })
    )
  ).id
  const since = new Date(Date.now() - 3_600_000).toISOString()
  const recoveryB: string = (
    await fixture(
      client.post(`/v1/webhook-endpoints/${endpointB}/recover`).bearerToken(keyB).json({ since })
    )
  ).id
  // B's hosted form, and B's upload once the worker has judged it (only then may it be accepted).
  const formB = await createForm(publisherB)
  publisherB.merge({ deliveryMethods: [...publisherB.deliveryMethods, 'upload'] })
  await publisherB.save()
  const uploadB: string = (await fixture(upload(client, keyB, csvOf([validRow()])))).id
  await uploadIn(client, keyB, uploadB, 'validated')
  // A payout of B: B joins the label, the operator credits B and runs the label's payouts to today.
  publisherB.merge({ labelId: label.id })
  await publisherB.save()
  await fixture(
    client
      .post('/v1/ledger/adjustments')
      .bearerToken(operator)
      .json({ publisher_id: publisherB.id, amount_cents: 2500, currency: 'EUR', note: 'Bonus' })
  )
  await fixture(
    client
      .post('/v1/payout-runs')
      .bearerToken(operator)
      .json({ label: label.slug, period_end: new Date().toISOString().slice(0, 10) })
  )
  const [payoutB] = (
    await fixture(client.get(`/v1/payouts?publisher_id=${publisherB.id}`).bearerToken(operator))
  ).data
  // The label's HubSpot plugin; its API base refuses connections, so nothing leaves the machine.
  await fixture(
    client
      .post(`/v1/labels/${label.id}/plugins`)
      .bearerToken(operator)
      .json({
        plugin: 'crm-hubspot',
        settings: { access_token: 'isolation', api_base: 'http://127.0.0.1:9' },
      })
  )

  const privacyRequest: string = (
    await fixture(
      client
        .post('/v1/privacy/requests')
        .bearerToken(operator)
        .json({ kind: 'access', email: 'isolation@example.nl' })
    )
  ).id
  const destinationY = await Destination.create({
    buyerId: buyerY.id,
    name: 'Buyer Y mailbox',
    kind: 'email',
    config: { email: { to: 'leads@buyer-y.example' } },
    secrets: null,
    signingSecret: null,
    status: 'enabled',
  })
  return {
    operator,
    label,
    privacyRequest,
    destinationY,
    publisherA,
    keyA,
    publisherB,
    keyB,
    buyerX,
    buyerY,
    keyX,
    rule,
    apiKeyB,
    clientB,
    userB,
    invitedUserB,
    leadB,
    flaggedB,
    endpointB,
    deliveryB: deliveryB.id as string,
    eventB: deliveryB.event_id as string,
    recoveryB,
    keyY,
    soldB,
    disputeB,
    formB,
    uploadB,
    payoutB: payoutB.id as string,
  }
}

/** A lead of the publisher, sold by routing (in this world, to buyer Y). */
async function soldLeadOf(client: any, publisher: { slug: string }, key: string) {
  const lead: string = (
    await fixture(client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug)))
  ).id
  const outcome = await routeLead(lead)
  if (outcome.outcome !== 'matched') throw new Error(`A fixture was not sold: ${outcome.outcome}`)
  return lead
}

/** The body of a fixture created through the API; a refusal stops the test with its reason. */
async function fixture(pending: any) {
  const response = await pending
  if (response.status() >= 300)
    throw new Error(`A fixture was refused: ${response.status()} ${response.text()}`)
  return response.body()
}

const outsiders = (world: World): [string, string][] => [
  ['publisher A', world.keyA],
  ['buyer X', world.keyX],
]
const everyoneElse = (world: World): [string, string][] => [
  ...outsiders(world),
  ['publisher B', world.keyB],
]
/**
 * Uploads and payouts are for publishers and the operator: a buyer is refused them all with 403,
 * whoever's they are (upload_inputs.spec.ts; docs/money.md "Who sees what"), so the other owner
 * is another publisher.
 */
const otherPublisher = (world: World): [string, string][] => [['publisher A', world.keyA]]
/** A statement is its buyer's; a publisher is refused statements with 403 (docs/money.md). */
const otherBuyer = (world: World): [string, string][] => [['buyer X', world.keyX]]

const CASES: Record<string, Case> = {
  'GET /v1/labels/{id}': { target: (w) => w.label.id, callers: everyoneElse },
  'PATCH /v1/labels/{id}': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    row: 'labels',
    body: { name: 'Taken over' },
  },
  'GET /v1/publishers/{id}': { target: (w) => w.publisherB.id, callers: outsiders },
  'PATCH /v1/publishers/{id}': {
    target: (w) => w.publisherB.id,
    callers: outsiders,
    row: 'publishers',
    body: { delivery_methods: ['form'] },
  },
  'GET /v1/publishers/{id}/quality-rules': { target: (w) => w.publisherB.id, callers: outsiders },
  'POST /v1/publishers/{id}/quality-rules/confirm': {
    target: (w) => w.publisherB.id,
    callers: outsiders,
    row: 'publishers',
  },
  'POST /v1/publishers/{id}/go-live-request': {
    target: (w) => w.publisherB.id,
    callers: outsiders,
    row: 'publishers',
  },
  'PUT /v1/publishers/{id}/quality-rules': {
    target: (w) => w.publisherB.id,
    callers: outsiders,
    row: 'publishers',
    body: { phone: { action: 'flag' } },
  },
  'POST /v1/publishers/{id}/quality-rules/preview': {
    target: (w) => w.publisherB.id,
    callers: outsiders,
    body: { lead: { contact: { email: 'sample@example.nl' } } },
  },
  'GET /v1/buyers/{id}': { target: (w) => w.buyerY.id, callers: everyoneElse },
  'PATCH /v1/buyers/{id}': {
    target: (w) => w.buyerY.id,
    callers: everyoneElse,
    row: 'buyers',
    body: { status: 'paused' },
  },
  'GET /v1/routing-rules/{id}': { target: (w) => w.rule.id, callers: everyoneElse },
  'PATCH /v1/routing-rules/{id}': {
    target: (w) => w.rule.id,
    callers: everyoneElse,
    row: 'routing_rules',
    body: { price_cents: 3000 },
  },
  'DELETE /v1/routing-rules/{id}': {
    target: (w) => w.rule.id,
    callers: everyoneElse,
    row: 'routing_rules',
  },
  'DELETE /v1/api-keys/{id}': { target: (w) => w.apiKeyB.id, callers: outsiders, row: 'api_keys' },
  'DELETE /v1/oauth-clients/{id}': {
    target: (w) => w.clientB.id,
    callers: outsiders,
    row: 'oauth_clients',
  },
  'PATCH /v1/users/{id}': {
    target: (w) => w.userB.id,
    callers: outsiders,
    row: 'users',
    body: { disabled: true },
  },
  'POST /v1/users/{id}/invitation': {
    target: (w) => w.invitedUserB,
    callers: outsiders,
    row: 'users',
  },
  'POST /v1/publishers/{id}/invitation': {
    target: (w) => w.publisherB.id,
    callers: outsiders,
    row: 'publishers',
  },
  'GET /v1/leads/{id}': { target: (w) => w.leadB, callers: outsiders },
  'POST /v1/leads/{id}/review': {
    target: (w) => w.flaggedB,
    callers: outsiders,
    body: { decision: 'reject', reason: 'Taken over.' },
  },
  'GET /v1/requests/{id}': { target: (w) => w.leadB, callers: outsiders },
  'GET /v1/uploads/{id}': { target: (w) => w.uploadB, callers: otherPublisher },
  'GET /v1/uploads/{id}/rows': { target: (w) => w.uploadB, callers: otherPublisher },
  // The operator's accept queues the acceptance; the worker takes one job at a time, in turn, so it
  // is done before the next world's upload is validated and never lands during a check.
  'POST /v1/uploads/{id}/accept': {
    target: (w) => w.uploadB,
    callers: otherPublisher,
    row: (w) => `${w.publisherB.schemaName}.uploads`,
    body: { include_flagged: true },
  },
  'GET /v1/forms/{id}': { target: (w) => w.formB.id, callers: outsiders },
  'PATCH /v1/forms/{id}': {
    target: (w) => w.formB.id,
    callers: outsiders,
    row: 'forms',
    body: { active: false },
  },
  'GET /v1/webhook-endpoints/{id}': { target: (w) => w.endpointB, callers: outsiders },
  'PATCH /v1/webhook-endpoints/{id}': {
    target: (w) => w.endpointB,
    callers: outsiders,
    row: 'webhook_endpoints',
    body: { description: 'taken over' },
  },
  'DELETE /v1/webhook-endpoints/{id}': {
    target: (w) => w.endpointB,
    callers: outsiders,
    row: 'webhook_endpoints',
  },
  'POST /v1/webhook-endpoints/{id}/rotate-secret': {
    target: (w) => w.endpointB,
    callers: outsiders,
    row: 'webhook_endpoints',
  },
  'GET /v1/webhook-endpoints/{id}/deliveries': { target: (w) => w.endpointB, callers: outsiders },
  'POST /v1/webhook-endpoints/{id}/recover': {
    target: (w) => w.endpointB,
    callers: outsiders,
    row: 'webhook_endpoints',
    body: { since: '2020-01-01T00:00:00Z' },
  },
  'GET /v1/webhook-deliveries/{id}': { target: (w) => w.deliveryB, callers: outsiders },
  'POST /v1/webhook-deliveries/{id}/retry': {
    target: (w) => w.deliveryB,
    callers: outsiders,
    row: 'webhook_deliveries',
  },
  'GET /v1/webhook-recoveries/{id}': { target: (w) => w.recoveryB, callers: outsiders },
  'POST /v1/events/{event_id}/replay': { target: (w) => w.eventB, callers: outsiders },
  // A dispute is its buyer's and its publisher's: the operator reads and decides it, the owners act.
  'POST /v1/leads/{id}/disputes': {
    target: (w) => w.soldB,
    callers: outsiders,
    body: { reason: 'fraud' },
    reachedBy: (w) => w.keyY,
  },
  'GET /v1/disputes/{id}': { target: (w) => w.disputeB, callers: outsiders },
  'POST /v1/disputes/{id}/responses': {
    target: (w) => w.disputeB,
    callers: outsiders,
    row: 'disputes',
    body: { text: 'Taken over.' },
    reachedBy: (w) => w.keyB,
  },
  'POST /v1/disputes/{id}/decision': {
    target: (w) => w.disputeB,
    callers: outsiders,
    row: 'disputes',
    body: { outcome: 'upheld' },
  },
  'POST /v1/disputes/{id}/withdraw': {
    target: (w) => w.disputeB,
    callers: outsiders,
    row: 'disputes',
    reachedBy: (w) => w.keyY,
  },
  // A label's settlement rules are the operator's: to everyone else the label does not exist.
  'GET /v1/labels/{id}/settlement-policy': { target: (w) => w.label.id, callers: everyoneElse },
  'PUT /v1/labels/{id}/settlement-policy': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    body: {
      payout_schedule: 'weekly',
      minimum_payout_cents: 0,
      response_hours: 24,
      decision_hours: 48,
      default_outcome: 'rejected',
    },
  },
  'GET /v1/payouts/{id}': { target: (w) => w.payoutB, callers: otherPublisher },
  'POST /v1/payouts/{id}/mark-paid': {
    target: (w) => w.payoutB,
    callers: otherPublisher,
    row: 'payouts',
    body: { reference: 'SEPA-taken-over' },
  },
  'POST /v1/payouts/{id}/mark-failed': {
    target: (w) => w.payoutB,
    callers: otherPublisher,
    row: 'payouts',
    body: { reason: 'Taken over.' },
  },
  'GET /v1/buyers/{id}/statement': { target: (w) => w.buyerY.id, callers: otherBuyer },
  'GET /v1/buyers/{id}/funds': { target: (w) => w.buyerY.id, callers: otherBuyer },
  'POST /v1/buyers/{id}/funds/top-ups': {
    target: (w) => w.buyerY.id,
    callers: otherBuyer,
    body: { amount_cents: 100_000, reference: 'Taken over' },
  },
  // Selling: a lead's sale follows the lead; a buyer's destinations are its own (a publisher is
  // refused them with 403, as statements).
  'GET /v1/leads/{id}/sale': { target: (w) => w.soldB, callers: outsiders },
  'GET /v1/publishers/{id}/posting-spec': { target: (w) => w.publisherB.id, callers: outsiders },
  'GET /v1/buyers/{id}/destinations': { target: (w) => w.buyerY.id, callers: otherBuyer },
  'POST /v1/buyers/{id}/destinations': {
    target: (w) => w.buyerY.id,
    callers: otherBuyer,
    body: { name: 'Taken over', kind: 'email', email: { to: 'thief@example.com' } },
  },
  ...Object.fromEntries(
    (
      [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['POST', '/test'],
      ] as const
    ).map(([method, suffix]) => [
      `${method} /v1/buyers/{id}/destinations/{destination_id}${suffix}`,
      {
        target: (w: World) => `${w.buyerY.id}/destinations/${w.destinationY.id}`,
        path: (id: string) => `/v1/buyers/${id}${suffix}`,
        callers: otherBuyer,
        ...(method === 'PATCH' ? { body: { name: 'Taken over' } } : {}),
        ...(method === 'POST' ? { body: {} } : {}),
      } satisfies Case,
    ])
  ),
  // Integrations: a label's plugins are the operator's; a lead's calls follow the lead.
  'GET /v1/labels/{id}/plugins': { target: (w) => w.label.id, callers: everyoneElse },
  'POST /v1/labels/{id}/plugins': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    body: { plugin: 'crm-pipedrive', settings: { api_token: 'x', api_base: 'http://127.0.0.1:9' } },
  },
  'GET /v1/labels/{id}/plugins/{name}': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    path: (id) => `/v1/labels/${id}/plugins/crm-hubspot`,
  },
  'PATCH /v1/labels/{id}/plugins/{name}': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    path: (id) => `/v1/labels/${id}/plugins/crm-hubspot`,
    body: { enabled: false },
  },
  'DELETE /v1/labels/{id}/plugins/{name}': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    path: (id) => `/v1/labels/${id}/plugins/crm-hubspot`,
  },
  'GET /v1/labels/{id}/plugins/{name}/deliveries': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    path: (id) => `/v1/labels/${id}/plugins/crm-hubspot/deliveries`,
  },
  'POST /v1/labels/{id}/plugins/{name}/test': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    path: (id) => `/v1/labels/${id}/plugins/crm-hubspot/test`,
  },
  'GET /v1/leads/{id}/calls': { target: (w) => w.leadB, callers: outsiders },
  'GET /v1/leads/{id}/plugin-syncs': { target: (w) => w.leadB, callers: outsiders },
  'GET /v1/labels/{id}/templates/n8n': { target: (w) => w.label.id, callers: everyoneElse },
  'GET /v1/labels/{id}/templates/zapier': { target: (w) => w.label.id, callers: everyoneElse },
  'GET /v1/labels/{id}/templates/make': { target: (w) => w.label.id, callers: everyoneElse },
  // Privacy: requests and retention are the operator's; consent is withdrawn by the lead's publisher.
  'GET /v1/privacy/requests/{id}': { target: (w) => w.privacyRequest, callers: everyoneElse },
  'GET /v1/labels/{id}/retention': { target: (w) => w.label.id, callers: everyoneElse },
  'PUT /v1/labels/{id}/retention': {
    target: (w) => w.label.id,
    callers: everyoneElse,
    body: {
      contact_days: 1,
      ip_days: 1,
      attributes_days: 1,
      uploads_days: 1,
      webhook_payload_days: 1,
      access_log_days: 1,
    },
  },
  'POST /v1/leads/{id}/consent/withdraw': { target: (w) => w.soldB, callers: outsiders, body: {} },
}

/** Routes whose resource id travels in the query string. */
const QUERY_CASES: Record<string, Case> = {
  'GET /v1/audit-logs': {
    target: (w) => w.leadB,
    callers: outsiders,
    path: (id) => `/v1/audit-logs?lead_id=${id}&format=json`,
  },
  'GET /v1/audit-logs/verify': {
    target: (w) => w.leadB,
    callers: outsiders,
    path: (id) => `/v1/audit-logs/verify?lead_id=${id}`,
  },
}

/** Routes the router serves under /v1 with a path parameter, as `METHOD /v1/path/{param}`. */
function routesWithIds() {
  return Object.values(router.toJSON())
    .flat()
    .filter((route) => route.pattern.startsWith('/v1/') && route.pattern.includes(':'))
    .flatMap((route) =>
      route.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => `${method} ${route.pattern.replace(/:(\w+)\??/g, '{$1}')}`)
    )
}

function served(route: string) {
  const [method, path] = route.split(' ')
  return Object.values(router.toJSON())
    .flat()
    .some(
      (item) => item.methods.includes(method) && item.pattern === path.replace(/\{(\w+)\}/g, ':$1')
    )
}

async function rowOf(world: World, item: Case, id: string) {
  const table = typeof item.row === 'function' ? item.row(world) : item.row
  return table ? db.from(table).where('id', id).first() : null
}

function request(client: any, route: string, id: string, key: string, item: Case) {
  const [method, pattern] = route.split(' ')
  const path = item.path ? item.path(id) : pattern.replace(/\{\w+\}/, id)
  const call = client[method.toLowerCase()](path).bearerToken(key)
  return item.body ? call.json(item.body) : call
}

test.group("Isolation / another owner's resource answers 404", (group) => {
  // Judges B's upload in each world; stopped (finishing the job in flight) when the group ends.
  group.setup(async () => startUploadWorker({ sweep: false }))

  test('every routed path with an id has an isolation case', ({ assert }) => {
    const missing = routesWithIds().filter((route) => !(route in CASES))
    assert.deepEqual(
      missing,
      [],
      `Add these routes to CASES in tests/functional/isolation.spec.ts: ${missing.join(', ')}`
    )
  })

  test('{$self} is out of reach for other owners and changes nothing')
    // Lazily: the router commits its routes after the test files load.
    .with(() => [...Object.keys(CASES), ...Object.keys(QUERY_CASES)].filter(served))
    .run(async ({ client, assert }, route) => {
      const item = CASES[route] ?? QUERY_CASES[route]
      const world = await buildWorld(client)
      const id = item.target(world)
      const row = await rowOf(world, item, id)
      const before = await snapshotDatabase()

      for (const [caller, key] of item.callers(world)) {
        const response = await request(client, route, id, key, item)
        assert.equal(response.status(), 404, `${caller}: ${response.text()}`)
        assert.include(response.header('content-type'), 'application/problem+json', caller)
        assert.equal(response.body().code, 'not_found', caller)
      }

      assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
      assert.deepEqual(await rowOf(world, item, id), row)

      const owner = await request(
        client,
        route,
        id,
        item.reachedBy?.(world) ?? world.operator,
        item
      )
      assert.oneOf(owner.status(), [200, 201, 202, 204], `its owner reaches it: ${owner.text()}`)
    })

  test("an id that exists nowhere answers the same 404 as another owner's", async ({
    client,
    assert,
  }) => {
    const world = await buildWorld(client)
    const unknown = await client.get(`/v1/publishers/${randomUUID()}`).bearerToken(world.keyA)
    const foreign = await client
      .get(`/v1/publishers/${world.publisherB.id}`)
      .bearerToken(world.keyA)
    assert.equal(unknown.status(), 404)
    const strip = (body: any) => ({ ...body, instance: undefined, request_id: undefined })
    assert.deepEqual(strip(foreign.body()), strip(unknown.body()))
  })
})

test.group('Isolation / malformed ids', () => {
  test('a malformed id answers 404 problem+json, never 500, on every route with an id', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const failures: string[] = []
    const before = await snapshotDatabase()
    for (const route of routesWithIds()) {
      const [method, pattern] = route.split(' ')
      for (const bad of [
        'not-a-uuid',
        '12345',
        "1' OR '1'='1",
        'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
        '%00',
        `${randomUUID()}x`,
      ]) {
        const call = (client as any)
          [method.toLowerCase()](
            pattern.replace(/\{\w+\}/, encodeURIComponent(bad).replace('%2500', '%00'))
          )
          .bearerToken(key)
        const response = ['POST', 'PUT', 'PATCH'].includes(method)
          ? await call.json({})
          : await call
        const type = String(response.header('content-type'))
        if (
          response.status() !== 404 ||
          !type.startsWith('application/problem+json') ||
          typeof response.body().code !== 'string'
        ) {
          failures.push(
            `${method} ${pattern} with ${JSON.stringify(bad)}: ${response.status()} ${response.text().slice(0, 200)}`
          )
        }
      }
    }
    assert.deepEqual(failures, [], failures.join('\n'))
    assert.deepEqual(snapshotDifference(before, await snapshotDatabase()), {})
  })

  test('a malformed id in the query string is a 422, never a 500', async ({ client, assert }) => {
    const key = await operatorKey()
    for (const path of [
      '/v1/audit-logs?lead_id=not-a-uuid&format=json',
      "/v1/audit-logs/verify?lead_id=1'%20OR%20'1'='1",
    ]) {
      const response = await client.get(path).bearerToken(key)
      assert.equal(response.status(), 422, path)
      assert.include(response.header('content-type'), 'application/problem+json', path)
      assert.equal(response.body().code, 'validation_failed', path)
    }
  })
})
