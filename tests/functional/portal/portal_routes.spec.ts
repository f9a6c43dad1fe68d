import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import type Buyer from '#models/buyer'
import type Publisher from '#models/publisher'
import { createBuyer, createPublisher, unique } from '#tests/support/fixtures'
import { createForm } from '#tests/support/forms'
import {
  csvOf,
  upload,
  uploadingPublisher,
  validRow,
} from '#tests/functional/uploads/upload_support'
import { PortalAgent } from '#tests/support/portal_agent'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'
import { disputable, openDispute } from '#tests/functional/money/disputes_support'

/**
 * Every portal route the router serves, walked as every role: another role's portal answers
 * 404, and so does an id that is not the caller's (here one that exists nowhere), whatever the
 * method; nothing answers 500 and no refused change stores anything. The specs of each area
 * check the same with another owner's real resources.
 */
const PASSWORD = 'a-long-enough-password'
const PORTALS = ['operator', 'publisher', 'buyer', 'compliance'] as const
type Portal = (typeof PORTALS)[number]

type PortalRoute = { method: string; pattern: string; portal: Portal }

function portalRoutes(): PortalRoute[] {
  return Object.values(router.toJSON())
    .flat()
    .flatMap((route) => {
      const portal = PORTALS.find(
        (name) => route.pattern === `/${name}` || route.pattern.startsWith(`/${name}/`)
      )
      if (!portal) return []
      return route.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, pattern: route.pattern, portal }))
    })
}

/** The path with every parameter a fresh uuid: an id nobody owns. */
const withUnknownIds = (pattern: string) => pattern.replace(/:\w+\??/g, () => randomUUID())

/** A signed-in user of the portal with read and submit; a publisher's user is `publisher`'s, a buyer's `buyer`'s. */
async function agentFor(portal: Portal, publisher?: Publisher, buyer?: Buyer) {
  publisher ??= await createPublisher()
  buyer ??= await createBuyer()
  const roles = {
    operator: { role: 'operator_admin', publisherId: null, buyerId: null },
    publisher: { role: 'publisher_user', publisherId: publisher.id, buyerId: null },
    buyer: { role: 'buyer_user', publisherId: null, buyerId: buyer.id },
    compliance: { role: 'compliance_officer', publisherId: null, buyerId: null },
  } as const
  const user = await User.create({
    email: `${unique(portal)}@portal.example`,
    password: PASSWORD,
    permissions: ['read', 'submit'],
    ...roles[portal],
  })
  const agent = new PortalAgent()
  await agent.signIn(user.email, PASSWORD)
  return agent
}

/**
 * Each page (path under the portal → its Inertia component) as the operator
 * and as a user of `publisher` see it: what did not open as that component.
 */
async function pagesNotOpening(publisher: Publisher, pages: Record<string, string>) {
  const failures: string[] = []
  for (const portal of ['operator', 'publisher'] as const) {
    const agent = await agentFor(portal, publisher)
    for (const [path, component] of Object.entries(pages)) {
      const { status, page } = await agent.visit(`/${portal}/${path}`)
      if (status !== 200 || page?.component !== component) {
        failures.push(`GET /${portal}/${path}: ${status} ${page?.component}`)
      }
    }
  }
  return failures
}

/** A scheduled payout of the publisher, as a run would leave it: its id. */
async function soldPayout(publisherId: string) {
  const id = randomUUID()
  await db.table('payouts').insert({
    id,
    publisher_id: publisherId,
    currency: 'EUR',
    period_end: new Date().toISOString().slice(0, 10),
    amount_cents: 1800,
    lead_count: 0,
    status: 'scheduled',
    created_at: new Date(),
    updated_at: new Date(),
  })
  return id
}

async function answer(agent: PortalAgent, method: string, path: string) {
  if (method === 'GET') return (await agent.visit(path)).status
  return (await agent.submit(method as 'POST', path, {})).status
}

test.group('Portal / every route, every role', () => {
  test('the router serves the four portals', ({ assert }) => {
    const served = new Set(portalRoutes().map((route) => route.portal))
    assert.sameMembers([...served], [...PORTALS])
    assert.isAbove(portalRoutes().length, 40)
  })

  test('another role’s portal answers 404 and changes nothing, on every route', async ({
    assert,
  }) => {
    const publishers = await Promise.all(PORTALS.map(() => createPublisher()))
    const agents = Object.fromEntries(
      await Promise.all(
        PORTALS.map(
          async (portal, index) => [portal, await agentFor(portal, publishers[index])] as const
        )
      )
    ) as Record<Portal, PortalAgent>
    // Every id in the paths is unknown, so a refused request could only write to the shared
    // schemas or the agents' own publishers', which a snapshot compares. One refused change's
    // "after" is the next one's "before"; a GET in between may touch what a snapshot sees, so
    // after one, start afresh.
    const failures: string[] = []
    let before: Awaited<ReturnType<typeof snapshotDatabase>> | null = null
    for (const route of portalRoutes()) {
      const path = withUnknownIds(route.pattern)
      for (const portal of PORTALS.filter((name) => name !== route.portal)) {
        if (route.method !== 'GET') before ??= await snapshotDatabase()
        const status = await answer(agents[portal], route.method, path)
        if (status !== 404)
          failures.push(`${route.method} ${route.pattern} as ${portal}: ${status}`)
        if (route.method === 'GET' || !before) {
          before = null
          continue
        }
        const after = await snapshotDatabase()
        const changed = snapshotDifference(before, after)
        if (Object.keys(changed).length > 0) {
          failures.push(
            `${route.method} ${route.pattern} as ${portal} changed ${JSON.stringify(changed)}`
          )
        }
        before = after
      }
    }
    assert.deepEqual(failures, [])
  }).timeout(300_000)

  test('an id that is not the caller’s answers 404 in its own portal, whatever the method', async ({
    assert,
  }) => {
    const failures: string[] = []
    for (const portal of PORTALS) {
      const agent = await agentFor(portal)
      for (const route of portalRoutes().filter(
        (item) => item.portal === portal && item.pattern.includes(':')
      )) {
        const status = await answer(agent, route.method, withUnknownIds(route.pattern))
        if (status !== 404) failures.push(`${route.method} ${route.pattern}: ${status}`)
      }
    }
    assert.deepEqual(failures, [])
  }).timeout(300_000)

  test('the forms pages open in the operator’s and a publisher’s portal', async ({ assert }) => {
    const publisher = await createPublisher()
    const form = await createForm(publisher)
    const pages = {
      'forms': 'forms/index',
      'forms?publisher_id=not-an-id': 'forms/index',
      'forms/new': 'forms/edit',
      [`forms/${form.id}`]: 'forms/show',
      [`forms/${form.id}/edit`]: 'forms/edit',
    }
    assert.deepEqual(await pagesNotOpening(publisher, pages), [])
  })

  test('the uploads pages open in the operator’s and a publisher’s portal', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await uploadingPublisher()
    const made = (await upload(client, key, csvOf([validRow()]))).body()
    const pages = {
      'uploads': 'uploads/index',
      'uploads?status=junk&cursor=junk': 'uploads/index',
      'uploads?environment=sandbox': 'uploads/index',
      [`uploads/${made.id}`]: 'uploads/show',
      [`uploads/${made.id}?outcome=junk`]: 'uploads/show',
    }
    assert.deepEqual(await pagesNotOpening(publisher, pages), [])
  })

  test('the operator’s money pages open, whatever the address says', async ({ client, assert }) => {
    const world = await disputable(client, {
      policy: { response_hours: 72, decision_hours: 120, default_outcome: 'upheld' },
    })
    const dispute = (await openDispute(client, world)).body()
    const payout = await soldPayout(world.publisher.id)
    const agent = await agentFor('operator')
    const pages = {
      'settlement': 'money/operator/settlement',
      'settlement?sort=margin&order=asc&limit=1': 'money/operator/settlement',
      'settlement?sort=junk&cursor=junk&label=Not%20A%20Slug': 'money/operator/settlement',
      [`settlement?label=${world.label!.slug}&cursor=junk`]: 'money/operator/settlement',
      [`settlement/${world.publisher.id}`]: 'money/operator/publisher',
      [`settlement/${world.publisher.id}?cursor=junk`]: 'money/operator/publisher',
      'disputes': 'money/operator/disputes',
      'disputes?status=junk&publisher_id=junk': 'money/operator/disputes',
      [`disputes?status=open&buyer_id=${world.buyer.id}&cursor=junk`]: 'money/operator/disputes',
      [`disputes/${dispute.id}`]: 'money/disputes/show',
      'payouts': 'money/operator/payouts',
      'payouts?status=junk&cursor=junk': 'money/operator/payouts',
      [`payouts?status=scheduled&publisher_id=${world.publisher.id}`]: 'money/operator/payouts',
      [`payouts/${payout}`]: 'money/operator/payout',
      [`labels/${world.label!.id}/settlement-rules`]: 'operator/labels/settlement_rules',
    }
    const failures: string[] = []
    for (const [path, component] of Object.entries(pages)) {
      const { status, page } = await agent.visit(`/operator/${path}`)
      if (status !== 200 || page?.component !== component) {
        failures.push(`GET /operator/${path}: ${status} ${page?.component}`)
      }
    }
    assert.deepEqual(failures, [])
  })

  test('the money pages open in a publisher’s and a buyer’s portal', async ({ client, assert }) => {
    const world = await disputable(client)
    const dispute = (await openDispute(client, world)).body().id as string
    const payout = await soldPayout(world.publisher.id)
    const pages = {
      publisher: {
        '/publisher/settlement': 'money/settlement',
        '/publisher/settlement?status=junk&cursor=junk': 'money/settlement',
        [`/publisher/payouts/${payout}`]: 'money/payout',
        '/publisher/disputes': 'money/disputes/index',
        '/publisher/disputes?status=junk&cursor=junk': 'money/disputes/index',
        '/publisher/disputes?buyer_id=not-theirs': 'money/disputes/index',
        [`/publisher/disputes/${dispute}`]: 'money/disputes/show',
      },
      buyer: {
        '/buyer/disputes': 'money/disputes/index',
        '/buyer/disputes?status=open&cursor=junk': 'money/disputes/index',
        [`/buyer/disputes/${dispute}`]: 'money/disputes/show',
        '/buyer/funds': 'buyer/funds',
        '/buyer/statement': 'money/statement',
        '/buyer/statement?from=2026-11-30&to=2026-11-01': 'money/statement',
        '/buyer/statement?from=junk': 'money/statement',
        [`/buyer/leads/${world.leadId}`]: 'leads/show',
      },
    }
    const failures: string[] = []
    for (const portal of ['publisher', 'buyer'] as const) {
      const agent = await agentFor(portal, world.publisher, world.buyer)
      for (const [path, component] of Object.entries(pages[portal])) {
        const { status, page } = await agent.visit(path)
        if (status !== 200 || page?.component !== component) {
          failures.push(`GET ${path}: ${status} ${page?.component}`)
        }
      }
    }
    assert.deepEqual(failures, [])

    // The lead page's return window, for its buyer: a dispute is open, so no second return now.
    const buyer = await agentFor('buyer', world.publisher, world.buyer)
    const { status, page } = await buyer.visit(`/buyer/leads/${world.leadId}/return-window`)
    assert.equal(status, 200)
    assert.deepInclude(page as unknown as Record<string, unknown>, {
      settlement: 'pending',
      open: false,
      dispute: { id: dispute, status: 'open' },
      may_open: true,
    })
  })
})
