import { test } from '@japa/runner'
import Destination from '#models/destination'
import RoutingRule from '#models/routing_rule'
import User from '#models/user'
import type { Permission } from '#auth/principal'
import { createBuyer, unique } from '#tests/support/fixtures'
import { PortalAgent } from '#tests/support/portal_agent'
import { createRule, disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { createDestination, sellingWorld } from '#tests/functional/selling/selling_support'

const PASSWORD = 'a-long-enough-password'

/** A buyer's portal user, signed in. */
async function buyerAgent(buyerId: string, permissions: Permission[] = ['read', 'submit']) {
  const user = await User.create({
    email: `${unique('buyer')}@portal.example`,
    password: PASSWORD,
    role: 'buyer_user',
    buyerId,
    publisherId: null,
    permissions,
  })
  const agent = new PortalAgent()
  await agent.signIn(user.email, PASSWORD)
  return agent
}

const httpSettings = (template: string) => ({
  method: 'POST',
  url: 'https://crm.buyer.example/leads',
  content_type: 'json',
  template,
  auth: { type: 'none' },
  response: { accepted: { path: '$.ok' } },
})

test.group('Selling / the buyer portal’s refusals', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a template that gives no valid document is refused next to its field, nothing stored', async ({
    assert,
  }) => {
    const buyer = await createBuyer()
    const agent = await buyerAgent(buyer.id)
    await agent.visit('/buyer/destinations/new')
    const refused = await agent.submit('POST', '/buyer/destinations', {
      name: 'Broken',
      kind: 'http',
      http: httpSettings('{"email": {{ contact.email }}'),
    })
    assert.equal(refused.location, '/buyer/destinations/new')
    const { page } = await agent.visit('/buyer/destinations/new')
    assert.isDefined(page!.props.errors['http.template'])
    assert.lengthOf(await Destination.query().where('buyer_id', buyer.id), 0)
  })

  test('a user who may only read changes nothing', async ({ assert }) => {
    const buyer = await createBuyer()
    const destination = await createDestination(buyer.id, 'email', {
      email: { to: 'leads@buyer.example' },
    })
    const rule = await createRule({
      buyerId: buyer.id,
      labelIds: [(await sellingWorld()).label.id],
    })
    const agent = await buyerAgent(buyer.id, ['read'])
    const { page } = await agent.visit('/buyer/destinations')
    assert.isFalse(page!.props.can_manage)
    await agent.submit('POST', '/buyer/destinations', {
      name: 'Mine',
      kind: 'email',
      email: { to: 'x@buyer.example' },
    })
    await agent.submit('DELETE', `/buyer/destinations/${destination.id}`)
    await agent.submit('PATCH' as 'POST', `/buyer/rules/${rule.id}`, { status: 'paused' })
    assert.lengthOf(await Destination.query().where('buyer_id', buyer.id), 1)
    assert.isTrue((await RoutingRule.findOrFail(rule.id)).enabled)
  })

  test('a destination a rule sells to is not deleted; a rule’s price is not the buyer’s to change', async ({
    assert,
  }) => {
    const buyer = await createBuyer()
    const destination = await createDestination(buyer.id, 'email', {
      email: { to: 'leads@buyer.example' },
    })
    const rule = await createRule({
      buyerId: buyer.id,
      labelIds: [(await sellingWorld()).label.id],
      destinationId: destination.id,
      priceCents: 1500,
    })
    const agent = await buyerAgent(buyer.id)
    await agent.visit(`/buyer/destinations/${destination.id}`)
    const kept = await agent.submit('DELETE', `/buyer/destinations/${destination.id}`)
    assert.equal(kept.location, `/buyer/destinations/${destination.id}`)
    assert.isNotNull(await Destination.find(destination.id))

    await agent.visit(`/buyer/rules/${rule.id}/edit`)
    await agent.submit('PATCH' as 'POST', `/buyer/rules/${rule.id}`, {
      price_cents: 1,
      caps: { daily: 3 },
    })
    await rule.refresh()
    assert.equal(rule.priceCents, 1500)
    assert.deepEqual(rule.caps, {})
  })
})
