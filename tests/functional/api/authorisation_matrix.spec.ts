import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import app from '@adonisjs/core/services/app'
import RoutingRule from '#models/routing_rule'
import WebhookEndpoint from '#models/webhook_endpoint'
import Destination from '#models/destination'
import User from '#models/user'
import OauthClientService from '#services/access/oauth_client_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import {
  createBuyer,
  createKey,
  createLabel,
  leadBody,
  livePublisher,
  unique,
} from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'
import { createRule, route } from '#tests/functional/routing/routing_support'

/**
 * Every operation of the served OpenAPI document × every kind of caller, with the answer each
 * must get. An operation nobody classified fails the test, so a new route is placed in the
 * matrix the day it is added. A refusal must change nothing: every table's contents are hashed
 * before and after each refused write.
 */
type Kind = 'operator' | 'publisher' | 'buyer'
type Actor = {
  name: string
  kind: Kind | null
  permissions: ('read' | 'submit')[]
  environment: 'live' | 'sandbox'
  key: string | null
}
type Access = {
  /** The kinds that may call the operation at all; the others get 403 or 404. */
  may: Kind[] | 'public'
  /**
   * Callers of an allowed kind (or by name) that the policy still refuses with these ids and
   * this body: a publisher may not set its own status, nor grant what it does not hold.
   */
  refused?: string[]
  /** A sandbox credential may do it: deliver, and run its own webhooks. Other writes are live only. */
  sandbox?: true
}

const OPERATOR: Access = { may: ['operator'] }
const PUBLISHER: Access = { may: ['operator', 'publisher'] }
const ANYONE: Access = { may: ['operator', 'publisher', 'buyer'] }
const WEBHOOKS: Access = { ...ANYONE, sandbox: true }

const MATRIX: Record<string, Access> = {
  getOpenapiDocument: { may: 'public' },
  listLabels: OPERATOR,
  createLabel: OPERATOR,
  getLabel: OPERATOR,
  updateLabel: OPERATOR,
  listPublishers: PUBLISHER,
  createPublisher: OPERATOR,
  getPublisher: PUBLISHER,
  // The example sets a status: only the operator decides that.
  updatePublisher: { may: ['operator', 'publisher'], refused: ['publisher'] },
  confirmQualityRules: PUBLISHER,
  requestGoLive: PUBLISHER,
  resendPublisherInvitation: OPERATOR,
  getQualityRules: PUBLISHER,
  replaceQualityRules: OPERATOR,
  // The example tries rules of its own: a publisher previews only the rules it has.
  previewQualityRules: { may: ['operator', 'publisher'], refused: ['publisher'], sandbox: true },
  listBuyers: OPERATOR,
  createBuyer: OPERATOR,
  getBuyer: OPERATOR,
  updateBuyer: OPERATOR,
  // A buyer reads its own rules of its environment (another's answers 404) and changes only
  // their filters, caps, schedule and status: the example sets a price (403 operator_only).
  listRoutingRules: { may: ['operator', 'buyer'] },
  createRoutingRule: OPERATOR,
  getRoutingRule: { may: ['operator', 'buyer'], refused: ['buyer X sandbox', 'buyer Y read-only'] },
  updateRoutingRule: { may: ['operator', 'buyer'], refused: ['buyer'] },
  deleteRoutingRule: OPERATOR,
  // Buyers use the keys the operator gives them; they do not manage credentials.
  listApiKeys: PUBLISHER,
  createApiKey: PUBLISHER,
  revokeApiKey: PUBLISHER,
  listOauthClients: PUBLISHER,
  createOauthClient: PUBLISHER,
  revokeOauthClient: PUBLISHER,
  listUsers: PUBLISHER,
  // The example names another publisher's user.
  createUser: { may: ['operator', 'publisher'], refused: ['publisher'] },
  // The example grants read: a submit-only key cannot grant what it does not hold.
  updateUser: { may: ['operator', 'publisher'], refused: ['publisher A submit-only'] },
  resendUserInvitation: PUBLISHER,
  listLeads: ANYONE,
  submitLead: { may: ['operator', 'publisher'], refused: ['publisher B'], sandbox: true },
  // A ping is a lead without its contact: whoever may deliver the lead may ping it.
  pingLead: { may: ['operator', 'publisher'], refused: ['publisher B'], sandbox: true },
  getPostingSpec: PUBLISHER,
  getLead: ANYONE,
  reviewLead: OPERATOR,
  submitRequest: { may: ['operator', 'publisher'], refused: ['publisher B'], sandbox: true },
  getRequest: ANYONE,
  // Publishers deliver in bulk (their own, in their environment); the operator for any publisher.
  createUpload: { ...PUBLISHER, sandbox: true },
  listUploads: PUBLISHER,
  getUpload: PUBLISHER,
  listUploadRows: PUBLISHER,
  acceptUpload: { ...PUBLISHER, sandbox: true },
  // Forms are a publisher's configuration: its own, live credentials only; the operator any.
  listForms: PUBLISHER,
  createForm: PUBLISHER,
  getForm: PUBLISHER,
  updateForm: PUBLISHER,
  // Settlement is the publisher's own and the operator's; a label's settlement rules the operator's.
  getSettlement: PUBLISHER,
  getSettlementPolicy: OPERATOR,
  replaceSettlementPolicy: OPERATOR,
  // Disputes: the buyer returns and withdraws, the publisher answers, the operator decides; all read their own.
  createDispute: { may: ['buyer'] },
  listDisputes: ANYONE,
  getDispute: ANYONE,
  respondToDispute: { may: ['publisher'] },
  decideDispute: OPERATOR,
  withdrawDispute: { may: ['buyer'] },
  createLedgerAdjustment: OPERATOR,
  // Payouts: a publisher reads its own, the operator every one and alone runs, pays and fails them.
  createPayoutRun: OPERATOR,
  listPayouts: PUBLISHER,
  getPayout: PUBLISHER,
  markPayoutPaid: OPERATOR,
  markPayoutFailed: OPERATOR,
  // A buyer reads its own statement (another buyer's answers 404), the operator any buyer's.
  getBuyerStatement: { may: ['operator', 'buyer'] },
  // A buyer reads its own funds; only the operator records money paid in.
  getBuyerFunds: { may: ['operator', 'buyer'] },
  topUpBuyerFunds: OPERATOR,
  // Selling: a lead's sale is read by whoever reads the lead (each its part); a buyer's
  // destinations are its own (another buyer answers 404) and the operator's; the examples name
  // buyer X, whose own live credential may change them.
  getLeadSale: ANYONE,
  listDestinations: { may: ['operator', 'buyer'], refused: ['buyer Y read-only'] },
  createDestination: { may: ['operator', 'buyer'], refused: ['buyer Y read-only'] },
  getDestination: { may: ['operator', 'buyer'], refused: ['buyer Y read-only'] },
  updateDestination: { may: ['operator', 'buyer'], refused: ['buyer Y read-only'] },
  testDestination: { may: ['operator', 'buyer'], refused: ['buyer Y read-only'] },
  deleteDestination: { may: ['operator', 'buyer'], refused: ['buyer Y read-only'] },
  // Reports: each reads its own figures (a publisher its leads, a buyer its purchases), the operator all.
  getReportKpis: ANYONE,
  getReportTimeseries: ANYONE,
  exportAuditLogs: ANYONE,
  // Without a lead id it verifies the whole log: the operator's alone.
  verifyAuditLog: OPERATOR,
  getAuditProof: ANYONE,
  getAuditConsistency: ANYONE,
  getLatestCheckpoint: ANYONE,
  listAccessLogs: PUBLISHER,
  listWebhookEndpoints: WEBHOOKS,
  createWebhookEndpoint: WEBHOOKS,
  getWebhookEndpoint: WEBHOOKS,
  updateWebhookEndpoint: WEBHOOKS,
  deleteWebhookEndpoint: WEBHOOKS,
  rotateWebhookSecret: WEBHOOKS,
  listWebhookDeliveries: WEBHOOKS,
  listWebhookDeliveriesAcrossEndpoints: WEBHOOKS,
  retryWebhookDeliveries: WEBHOOKS,
  getWebhookDelivery: WEBHOOKS,
  getWebhookRecovery: WEBHOOKS,
  retryWebhookDelivery: WEBHOOKS,
  recoverWebhookEndpoint: WEBHOOKS,
  replayEvent: WEBHOOKS,
  // Integrations: plugins are the operator's to enable per label; a sandbox key manages sandbox ones.
  getAvailablePlugins: OPERATOR,
  getLabelPlugins: OPERATOR,
  enableLabelPlugin: { may: ['operator'], sandbox: true },
  getLabelPlugin: OPERATOR,
  updateLabelPlugin: { may: ['operator'], sandbox: true },
  disableLabelPlugin: { may: ['operator'], sandbox: true },
  listLabelPluginDeliveries: OPERATOR,
  testLabelPlugin: { may: ['operator'], sandbox: true },
  // Calls: reported by the operator or a publisher (sandbox calls find sandbox leads); read by whoever sees the lead.
  createCall: { may: ['operator', 'publisher'], sandbox: true },
  createRingbaCall: { may: ['operator', 'publisher'], sandbox: true },
  createRetreaverCall: { may: ['operator', 'publisher'], sandbox: true },
  createCallrailCall: { may: ['operator', 'publisher'], sandbox: true },
  createInvocaCall: { may: ['operator', 'publisher'], sandbox: true },
  getLeadCalls: ANYONE,
  getN8nTemplate: OPERATOR,
  getZapierTemplate: OPERATOR,
  getMakeTemplate: OPERATOR,
  getLeadPluginSyncs: OPERATOR,
  // Privacy: the deployment's region and egress addresses are public; the rest the operator's.
  getMeta: { may: 'public' },
  getIpRanges: { may: 'public' },
  createPrivacyRequest: OPERATOR,
  getPrivacyRequest: OPERATOR,
  withdrawConsent: PUBLISHER,
  getRetentionPolicy: OPERATOR,
  replaceRetentionPolicy: OPERATOR,
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const
/** Client-credential and other non-key operations have suites of their own. */
const NOT_KEYED = new Set(['issueOauthToken'])

async function buildWorld(client: any) {
  const label = await createLabel()
  const { publisher: publisherA, key: keyA } = await livePublisher()
  const { publisher: publisherB } = await livePublisher()
  const [buyerX, buyerY] = [await createBuyer(), await createBuyer()]
  const secret = async (options: Parameters<typeof createKey>[0]) =>
    (await createKey(options)).secret

  const actors: Actor[] = [
    { name: 'nobody', kind: null, permissions: [], environment: 'live', key: null },
    ...(
      [
        ['publisher A read-only', 'publisher', ['read'], 'live', { publisherId: publisherA.id }],
        [
          'publisher A submit-only',
          'publisher',
          ['submit'],
          'live',
          { publisherId: publisherA.id },
        ],
        [
          'publisher A sandbox',
          'publisher',
          ['read', 'submit'],
          'sandbox',
          { publisherId: publisherA.id },
        ],
        ['publisher B', 'publisher', ['read', 'submit'], 'live', { publisherId: publisherB.id }],
        ['buyer X', 'buyer', ['read', 'submit'], 'live', { buyerId: buyerX.id }],
        ['buyer X sandbox', 'buyer', ['read', 'submit'], 'sandbox', { buyerId: buyerX.id }],
        ['buyer Y read-only', 'buyer', ['read'], 'live', { buyerId: buyerY.id }],
        ['operator read-only', 'operator', ['read'], 'live', {}],
        ['operator sandbox', 'operator', ['read', 'submit'], 'sandbox', {}],
      ] as const
    ).map(
      ([name, kind, permissions, environment, owner]) =>
        ({ name, kind, permissions: [...permissions], environment, owner }) as const
    ),
  ].map((actor) => actor as Actor & { owner?: Record<string, string> })
  for (const actor of actors) {
    if ('owner' in actor && actor.owner) {
      actor.key = await secret({
        ...actor.owner,
        permissions: actor.permissions,
        environment: actor.environment,
      })
    }
  }
  // The owner of the resources, and the operator, go last: what they may do can remove them.
  actors.push(
    {
      name: 'publisher A',
      kind: 'publisher',
      permissions: ['read', 'submit'],
      environment: 'live',
      key: keyA,
    },
    {
      name: 'operator',
      kind: 'operator',
      permissions: ['read', 'submit'],
      environment: 'live',
      key: await secret({}),
    }
  )

  const rule = await RoutingRule.create({
    buyerId: buyerX.id,
    labelIds: [label.id],
    publisherIds: [publisherA.id],
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
  // A lead of publisher A sold to buyer X, and buyer X's dispute about it.
  await createRule({ buyerId: buyerX.id, publisherIds: [publisherA.id], priority: 1000 })
  const sold = (
    await client.post('/v1/leads').bearerToken(keyA).json(leadBody(publisherA.slug))
  ).body().id as string
  await route(sold)
  const dispute = (
    await client
      .post(`/v1/leads/${sold}/disputes`)
      .bearerToken(await secret({ buyerId: buyerX.id }))
      .json({ reason: 'invalid_contact' })
  ).body().id as string
  // A payout of publisher A's (no sales on it): A and the operator read it, the operator pays it.
  const payout = randomUUID()
  await db.table('payouts').insert({
    id: payout,
    publisher_id: publisherA.id,
    currency: 'EUR',
    period_end: '2026-01-31',
    amount_cents: 1000,
    lead_count: 0,
    status: 'scheduled',
    created_at: new Date(),
    updated_at: new Date(),
  })
  const spareKey = (await createKey({ publisherId: publisherA.id })).apiKey
  const { client: oauthClient } = await (
    await app.container.make(OauthClientService)
  ).create(SYSTEM_OPERATOR, {
    name: unique('client'),
    publisher_id: publisherA.id,
    permissions: ['read'],
    environment: 'live',
  })
  const user = await User.create({
    email: `${unique('user')}@publisher.example`,
    password: 'a-long-enough-password',
    role: 'publisher_user',
    publisherId: publisherA.id,
    permissions: ['read'],
  })
  const endpoint = (
    await client
      .post('/v1/webhook-endpoints')
      .bearerToken(keyA)
      .json({ url: 'http://127.0.0.1:9/hooks', events: ['lead.received'] })
  ).body().id as string
  const lead = (
    await client.post('/v1/leads').bearerToken(keyA).json(leadBody(publisherA.slug))
  ).body().id as string
  publisherA.merge({ deliveryMethods: ['api', 'upload'] })
  await publisherA.save()
  const upload = (
    await client
      .post('/v1/uploads')
      .bearerToken(keyA)
      .file('file', Buffer.from('email,phone\r\nmatrix@example.nl,+31612345678\r\n'), {
        filename: 'matrix.csv',
      })
  ).body().id as string
  const form = (
    await client
      .post('/v1/forms')
      .bearerToken(keyA)
      .json({
        slug: unique('matrix-form'),
        title: 'Matrix',
        fields: [{ name: 'email', label: 'E-mail', required: true }],
        consent_text: 'I agree that the matrix may e-mail me about this test.',
      })
  ).body().id as string
  const [delivery] = (
    await client.get(`/v1/webhook-endpoints/${endpoint}/deliveries`).bearerToken(keyA)
  ).body().data
  const recovery = (
    await client
      .post(`/v1/webhook-endpoints/${endpoint}/recover`)
      .bearerToken(keyA)
      .json({ since: new Date(Date.now() - 3_600_000).toISOString() })
  ).body().id as string

  const privacyRequest = (
    await client
      .post('/v1/privacy/requests')
      .bearerToken(await secret({}))
      .json({ kind: 'access', email: 'matrix-subject@example.nl' })
  ).body().id as string

  const destinationX = await Destination.create({
    buyerId: buyerX.id,
    name: 'Buyer X mailbox',
    kind: 'email',
    config: { email: { to: 'leads@buyer-x.example' } },
    secrets: null,
    signingSecret: null,
    status: 'enabled',
  })
  /** The id a path names, by what the path is about: always publisher A's or its buyer's. */
  const idFor = (path: string, name = 'id') => {
    if (name === 'destination_id') return destinationX.id
    if (path.startsWith('/v1/labels/')) return label.id
    if (path.startsWith('/v1/publishers/')) return publisherA.id
    if (path.startsWith('/v1/buyers/')) return buyerX.id
    if (path.startsWith('/v1/routing-rules/')) return rule.id
    if (path.startsWith('/v1/api-keys/')) return spareKey.id
    if (path.startsWith('/v1/oauth-clients/')) return oauthClient.id
    if (path.startsWith('/v1/users/')) return user.id
    if (path.startsWith('/v1/leads/') || path.startsWith('/v1/requests/')) return lead
    if (path.startsWith('/v1/uploads/')) return upload
    if (path.startsWith('/v1/forms/')) return form
    if (path.startsWith('/v1/webhook-endpoints/')) return endpoint
    if (path.startsWith('/v1/webhook-deliveries/')) return delivery.id as string
    if (path.startsWith('/v1/webhook-recoveries/')) return recovery
    if (path.startsWith('/v1/events/')) return delivery.event_id as string
    if (path.startsWith('/v1/payouts/')) return payout
    if (path.startsWith('/v1/disputes/')) return dispute
    if (path.startsWith('/v1/privacy/requests/')) return privacyRequest
    throw new Error(`No id for ${path}: teach the matrix what this path names.`)
  }
  /** A lead's example names a publisher: publisher A's, so its own keys may deliver it. */
  const bodyFor = (example: any) =>
    example && typeof example.publisher === 'string'
      ? { ...example, publisher: publisherA.slug }
      : example
  return { actors, idFor, bodyFor, lead }
}

/** The query an operation cannot do without (a lead's trail needs its lead). */
function requiredQuery(spec: any, lead: string) {
  const query: Record<string, string> = {}
  for (const parameter of spec.parameters ?? []) {
    if (parameter.in !== 'query' || !parameter.required) continue
    query[parameter.name] = parameter.name === 'lead_id' ? lead : String(parameter.example ?? '')
  }
  return query
}

function expected(access: Access, actor: Actor, scope: string | undefined, writes: boolean) {
  if (access.may === 'public') return 'allowed'
  if (!actor.kind) return 'unauthenticated'
  if (!access.may.includes(actor.kind)) return 'refused'
  if (scope && !actor.permissions.includes(scope as 'read' | 'submit')) return 'refused'
  if (writes && actor.environment === 'sandbox' && !access.sandbox) return 'refused'
  if (access.refused?.some((who) => who === actor.kind || who === actor.name)) return 'refused'
  return 'allowed'
}

/** Reads first, then writes, removals last: a removal must not hide a resource from the rest. */
function operationsOf(document: any) {
  const order = ['get', 'put', 'patch', 'post', 'delete']
  return Object.entries(document.paths as Record<string, any>)
    .flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        path,
        method,
        spec: item[method],
      }))
    )
    .sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method))
}

test.group('Authorisation matrix / every operation × every kind of caller', () => {
  test('each caller gets the answer its kind, permissions and environment allow', async ({
    client,
    assert,
    cleanup,
  }) => {
    // The endpoints this test makes point nowhere: left behind, their failing deliveries would
    // keep a later test's workers busy.
    const started = new Date()
    cleanup(async () => {
      await WebhookEndpoint.query().where('created_at', '>=', started).delete()
    })
    const document = (await client.get('/v1/openapi.json')).body()
    const world = await buildWorld(client)
    const failures: string[] = []
    const table: string[] = []

    // The hash sees a change: one label more is a different public.labels.
    const untouched = await snapshotDatabase()
    const label = await createLabel()
    assert.deepEqual(Object.keys(snapshotDifference(untouched, await snapshotDatabase())), [
      'public.labels',
    ])
    const counted = await snapshotDatabase()
    label.name = 'Renamed without a row more'
    await label.save()
    assert.deepEqual(snapshotDifference(counted, await snapshotDatabase()), {
      'public.labels': 'rows changed',
    })

    for (const { path, method, spec } of operationsOf(document)) {
      {
        if (!spec || spec['x-leadgate-status'] || NOT_KEYED.has(spec.operationId)) continue
        const access = MATRIX[spec.operationId]
        if (!access) {
          failures.push(
            `${spec.operationId} (${method.toUpperCase()} ${path}) is not in the matrix`
          )
          continue
        }
        const scope = spec.security?.find((entry: any) => entry.oauth2)?.oauth2?.[0]
        const url = path.replace(/\{([^}]+)\}/g, (_, name) => world.idFor(path, name))
        const example = world.bodyFor(spec.requestBody?.content?.['application/json']?.example)
        const row: string[] = []
        for (const actor of world.actors) {
          // What needs submit changes something; a POST that only reads (a preview) needs read.
          const writes = scope === 'submit'
          const expectation = expected(access, actor, scope, writes)
          const before = writes && expectation !== 'allowed' ? await snapshotDatabase() : null
          let request = client
            .request(url, method.toUpperCase() as any)
            .qs(requiredQuery(spec, world.lead))
          if (actor.key) request = request.bearerToken(actor.key)
          if (example !== undefined) request = request.json(example)
          const response = await request
          const status = response.status()
          row.push(`${actor.name}=${status}`)

          const wrong =
            status >= 500 ||
            (expectation === 'unauthenticated' && status !== 401) ||
            (expectation === 'refused' && ![403, 404].includes(status)) ||
            (expectation === 'allowed' && [401, 403].includes(status))
          if (wrong) {
            failures.push(
              `${method.toUpperCase()} ${path} as ${actor.name}: expected ${expectation}, got ${status} ${response.text().slice(0, 160)}`
            )
          }
          if (before) {
            const changed = Object.keys(snapshotDifference(before, await snapshotDatabase()))
            if (changed.length > 0) {
              failures.push(
                `${method.toUpperCase()} ${path} as ${actor.name} (${status}) changed ${changed.join(', ')}`
              )
            }
          }
        }
        table.push(`${spec.operationId}: ${row.join(' ')}`)
      }
    }
    if (process.env.MATRIX_PRINT) console.log(table.join('\n'))
    assert.deepEqual(failures, [])
  }).timeout(600_000)
})
