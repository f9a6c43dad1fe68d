import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import User from '#models/user'
import { createBuyer, createPublisher, unique } from '#tests/support/fixtures'
import { PortalAgent } from '#tests/support/portal_agent'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

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

async function agentFor(portal: Portal) {
  const publisher = await createPublisher()
  const buyer = await createBuyer()
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
    const agents = Object.fromEntries(
      await Promise.all(PORTALS.map(async (portal) => [portal, await agentFor(portal)] as const))
    ) as Record<Portal, PortalAgent>
    const failures: string[] = []
    for (const route of portalRoutes()) {
      const path = withUnknownIds(route.pattern)
      for (const portal of PORTALS.filter((name) => name !== route.portal)) {
        const before = route.method === 'GET' ? null : await snapshotDatabase()
        const status = await answer(agents[portal], route.method, path)
        if (status !== 404)
          failures.push(`${route.method} ${route.pattern} as ${portal}: ${status}`)
        if (before) {
          const changed = snapshotDifference(before, await snapshotDatabase())
          if (Object.keys(changed).length > 0) {
            failures.push(
              `${route.method} ${route.pattern} as ${portal} changed ${JSON.stringify(changed)}`
            )
          }
        }
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
})
