import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Destination from '#models/destination'
import RoutingRule from '#models/routing_rule'
import { createBuyer, leadBody } from '#tests/support/fixtures'
import { Receiver } from '#tests/support/webhooks'
import {
  assertUsable,
  createOperator,
  createPortalUser,
  expectText,
  pageText,
  signedIn,
  typeNumber,
} from '#tests/browser/helpers'
import { createRule, disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { createDestination, sell, sellingWorld } from '#tests/functional/selling/selling_support'
import { buyerSystem, pingPostBuyer, pingRule } from '#tests/functional/selling/ping_post_support'

/** A buyer's portal user who may change its settings (destinations, rules). */
async function buyerUser(buyerId: string) {
  const user = await createPortalUser('buyer_user', { buyerId })
  user.permissions = ['read', 'submit']
  await user.save()
  return user
}

/** With SHOTS_DIR set, the page at a desktop's and a phone's width, for a person to look at. */
async function screenshots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR
  if (!dir) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(300)
    await page.screenshot({ path: `${dir}/${name}_${width}.png`, fullPage: true, timeout: 90_000 })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** A buyer's own system: takes every lead with its id, as JSON. */
function acceptingSystem() {
  return Receiver.start(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ result: 'success', lead_id: 'B-4711' }),
  }))
}

test.group('Selling / the buyer portal and the operator’s lead page', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a buyer adds an http destination and tests it against its own system', async ({
    browserContext,
    assert,
    cleanup,
  }) => {
    const system = await acceptingSystem()
    cleanup(() => system.close())
    const buyer = await createBuyer()
    const user = await buyerUser(buyer.id)
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/buyer/destinations')

    await expectText(page, '[data-test="empty-state"]', 'No destinations yet', { contains: true })
    await expectText(page, '[data-test="empty-state"]', 'test button', { contains: true })
    await assertUsable(page, assert)
    await screenshots(page, 'destinations_empty')

    await page.locator('[data-test="add-destination"]').first().click()
    await page.locator('[data-test="destination-form"]').waitFor()
    await page.getByLabel('Name').fill('Our CRM')
    await page.locator('[data-test="http-url"]').fill(system.url)
    await page.locator('[data-test="http-auth-type"]').click()
    await page.getByRole('option', { name: 'Bearer token' }).click()
    await page.locator('#auth-token').fill('buyers-own-token')
    await page.locator('[data-test="accepted-path"]').fill('$.result')
    await page.locator('[data-test="accepted-equals"]').fill('success')
    await page.locator('[data-test="lead-id-path"]').fill('$.lead_id')
    await assertUsable(page, assert)
    await screenshots(page, 'destination_new')
    await page.locator('[data-test="save-destination"]').click()

    await expectText(page, '[data-test="one-time-secret"]', 'Signing secret', { contains: true })
    const destination = await Destination.query().where('buyer_id', buyer.id).firstOrFail()
    await page.assertPath(`/buyer/destinations/${destination.id}`)
    assert.equal(destination.kind, 'http')
    assert.equal(destination.config.http.url, system.url)
    assert.deepEqual(destination.config.http.auth, { type: 'bearer' })
    assert.deepEqual(destination.config.http.response.accepted, {
      path: '$.result',
      equals: 'success',
    })
    assert.notInclude(JSON.stringify(destination.config), 'buyers-own-token')
    // The token is stored apart and never shown back.
    assert.notInclude(await pageText(page), 'buyers-own-token')
    assert.equal(await page.locator('#auth-token').inputValue(), '')

    await page.locator('[data-test="test-destination"]').click()
    await expectText(page, '[data-test="test-outcome"]', 'accepted', { contains: true })
    await expectText(page, '[data-test="test-buyer-lead-id"]', 'B-4711')
    await expectText(page, '[data-test="test-response-status"]', '200', { contains: true })
    await expectText(page, '[data-test="test-request-line"]', `POST ${system.url}`, {
      contains: true,
    })
    assert.lengthOf(system.received, 1)
    assert.equal(system.received[0].headers.authorization, 'Bearer buyers-own-token')
    assert.include(
      await page.locator('[data-test="test-request-body"]').innerText(),
      system.received[0].json.email
    )
    // The request shown masks the secret it carried.
    assert.notInclude(await pageText(page), 'buyers-own-token')
    await assertUsable(page, assert)
    await screenshots(page, 'destination_tested')

    // Another buyer's destination is not there.
    const other = await createDestination((await createBuyer()).id, 'email', {
      email: { to: 'x@example.com' },
    })
    const foreign = await page.goto(`/buyer/destinations/${other.id}`)
    assert.equal(foreign?.status(), 404)
  })

  test('a buyer adds its CRM as a destination: the plugin’s settings, its token never shown back', async ({
    browserContext,
    assert,
  }) => {
    const buyer = await createBuyer()
    const user = await buyerUser(buyer.id)
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/buyer/destinations/new')
    await page.getByLabel('Name').fill('HubSpot')
    await page.locator('[data-test="destination-kind"]').click()
    await page.getByRole('option', { name: 'CRM' }).click()
    await page.locator('#crm-plugin-label').waitFor()
    await page.getByLabel('Private app access token').fill('pat-na1-secret')
    await assertUsable(page, assert)
    await page.locator('[data-test="save-destination"]').click()

    await expectText(page, '[data-test="page-title"]', 'HubSpot')
    const destination = await Destination.query().where('buyer_id', buyer.id).firstOrFail()
    assert.equal(destination.kind, 'crm')
    assert.equal(destination.config.crm.plugin, 'crm-hubspot')
    assert.equal(destination.config.crm.settings.field_mapping.email, 'contact.email')
    assert.notInclude(JSON.stringify(destination.config), 'pat-na1-secret')
    assert.notInclude(await pageText(page), 'pat-na1-secret')
    assert.equal(await page.getByLabel('Private app access token').inputValue(), '')
    await screenshots(page, 'destination_crm')

    await page.goto('/buyer/destinations')
    await expectText(page, '[data-test="destination-name"]', 'HubSpot')
    await assertUsable(page, assert)
    await screenshots(page, 'destinations')
  })

  test('a buyer pauses its rule and caps it, and never sees the payout', async ({
    browserContext,
    assert,
  }) => {
    const world = await sellingWorld()
    const buyer = await createBuyer()
    const rule = await createRule({
      buyerId: buyer.id,
      labelIds: [world.label.id],
      priceCents: 1500,
      payoutCents: 1234,
      criteria: [{ field: 'contact.country', op: 'eq', value: 'NL' }] as never,
    })
    const user = await buyerUser(buyer.id)
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/buyer/rules')

    await expectText(page, '[data-test="buyer-rule"] h2', `Leads of ${world.label.slug}`)
    const text = await pageText(page)
    assert.include(text, '€15.00')
    assert.notInclude(text, '12.34')
    await assertUsable(page, assert)
    await screenshots(page, 'rules')

    await page.locator('[data-test="pause-rule"]').click()
    await expectText(page, '[data-test="buyer-rule"] [data-test="status"]', 'paused')
    await rule.refresh()
    assert.isFalse(rule.enabled)

    await page.locator('[data-test="edit-rule"]').click()
    await page.locator('[data-test="buyer-rule-form"]').waitFor()
    await typeNumber(page, '#cap-daily', '25')
    await assertUsable(page, assert)
    await screenshots(page, 'rule_edit')
    await page.locator('[data-test="save-buyer-rule"]').click()
    await expectText(page, '[data-test="rule-caps"]', '0 of 25 leads today', { contains: true })
    await rule.refresh()
    assert.deepEqual(rule.caps, { daily: 25 })
    assert.equal(rule.payoutCents, 1234)

    await page.locator('[data-test="resume-rule"]').click()
    await expectText(page, '[data-test="buyer-rule"] [data-test="status"]', 'active')
    assert.isTrue((await RoutingRule.findOrFail(rule.id)).enabled)

    // A buyer without rules is told what happens next.
    const lonely = await buyerUser((await createBuyer()).id)
    await browserContext.clearCookies()
    await signedIn(page, lonely.email)
    await page.goto('/buyer/rules')
    await expectText(page, '[data-test="empty-state"]', 'No routing rules yet', {
      contains: true,
    })
  })

  test('the operator reads a lead’s sale: the attempt a buyer rejected and the sale that followed', async ({
    browserContext,
    client,
    assert,
    cleanup,
  }) => {
    const system = await Receiver.start(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ result: 'rejected', reason: 'Already a customer' }),
    }))
    cleanup(() => system.close())
    const world = await sellingWorld()
    const picky = await createBuyer()
    const destination = await createDestination(
      picky.id,
      'http',
      {
        http: {
          method: 'POST',
          url: system.url,
          content_type: 'json',
          template: '{"email": "{{ contact.email }}"}',
          auth: { type: 'none' },
          response: {
            accepted: { path: '$.result', equals: 'success' },
            rejected: { path: '$.result', equals: 'rejected' },
            reason_path: '$.reason',
          },
        },
      },
      null
    )
    await createRule({
      buyerId: picky.id,
      labelIds: [world.label.id],
      destinationId: destination.id,
      priority: 9,
      priceCents: 3000,
    })
    const taker = await createBuyer()
    await createRule({ buyerId: taker.id, labelIds: [world.label.id], priceCents: 1800 })
    const lead = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug))
    lead.assertStatus(201)
    await sell(lead.body().id)

    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await page.goto(`/operator/leads/${lead.body().id}`)

    await expectText(page, '[data-test="sale-status"]', 'Sold', { contains: true })
    await expectText(page, '[data-test="sale-status"]', taker.name, { contains: true })
    const rows = page.locator('[data-test="sale-attempts"] tbody tr')
    await expectText(page, '[data-test="sale-attempts"] tbody tr', picky.name, { contains: true })
    const first = await rows.first().innerText()
    assert.include(first, 'rejected')
    assert.include(first, 'Already a customer')
    assert.include(first, 'HTTP 200')
    assert.include(first, destination.name)
    await assertUsable(page, assert)
    await page.locator('[data-test="sale"]').scrollIntoViewIfNeeded()
    await screenshots(page, 'lead_sale')
  })

  test('the operator reads a lead’s auction: the bids, the winner, the clearing price and the digest', async ({
    browserContext,
    client,
    assert,
    cleanup,
  }) => {
    const world = await sellingWorld({ tmax_ms: 1500 })
    const [low, high] = [await buyerSystem({ bid: 900 }), await buyerSystem({ bid: 1700 })]
    cleanup(async () => {
      await low.close()
      await high.close()
    })
    const lowBuyer = await pingPostBuyer(low)
    const highBuyer = await pingPostBuyer(high)
    await pingRule(world, lowBuyer)
    await pingRule(world, highBuyer)
    const lead = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug))
    lead.assertStatus(201)
    await sell(lead.body().id)

    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await page.goto(`/operator/leads/${lead.body().id}`)

    await expectText(page, '[data-test="auction-winner"]', highBuyer.buyer.name)
    await expectText(page, '[data-test="auction-clearing"]', '€17.00', { contains: true })
    assert.match(await page.locator('[data-test="auction-digest"]').innerText(), /\S{16,}/)
    const bids = await page.locator('[data-test="auction-bids"] tbody').innerText()
    assert.include(bids, lowBuyer.buyer.name)
    assert.include(bids, '€9.00')
    const attempts = await page.locator('[data-test="sale-attempts"] tbody').innerText()
    assert.include(attempts, 'Ping (bid)')
    assert.include(attempts, '€17.00')
    await assertUsable(page, assert)
    await page.locator('[data-test="sale"]').scrollIntoViewIfNeeded()
    await screenshots(page, 'lead_auction')
  })
})
