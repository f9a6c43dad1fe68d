import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Label from '#models/label'
import { createLabel, leadBody } from '#tests/support/fixtures'
import {
  assertUsable,
  createOperator,
  createPortalUser,
  expectText,
  signedIn,
  toast,
  typeNumber,
} from '#tests/browser/helpers'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { sell, sellingWorld } from '#tests/functional/selling/selling_support'
import { buyerSystem, pingPostBuyer, pingRule } from '#tests/functional/selling/ping_post_support'

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

/** Picks an option of a Select, and waits until its list has closed again. */
async function choose(page: Page, select: string, option: RegExp) {
  await page.locator(select).click()
  await page.getByRole('option', { name: option }).click()
  await page.getByRole('listbox').waitFor({ state: 'detached' })
}

/** A lead of a label with two ping-post buyers bidding €9 and €17: the €17 one wins. */
async function auctionedLead(client: any, cleanup: (fn: () => Promise<void>) => void) {
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
  return { world, lowBuyer, highBuyer, leadId: lead.body().id as string }
}

test.group('Selling / a label’s selling, a buyer’s and a publisher’s sale', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the operator sets second-price auctions and a bucketed field; a wrong value stores nothing', async ({
    browserContext,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await page.goto(`/operator/labels/${label.id}/edit`)
    await expectText(page, '[data-test="selling-summary"]', 'Exclusive sales', { contains: true })
    await page.locator('[data-test="selling-link"]').click()
    await page.locator('[data-test="selling-form"]').waitFor()
    await assertUsable(page, assert)

    // The contact fields are shown, locked: no control changes them.
    const locked = await page.locator('[data-test="never-pinged"]').innerText()
    for (const name of ['Name', 'E-mail', 'Phone']) assert.include(locked, name)
    assert.equal(await page.locator('[data-test="ping-contact.email"]').count(), 0)

    // Nine buyers are one too many: the error sits by the field, nothing is stored.
    await typeNumber(page, '#sale-max-sales', '9')
    await page.locator('[data-test="save-selling"]').click()
    await expectText(page, '#sale-max-sales-error', 'between 1 and 8', { contains: true })
    await label.refresh()
    assert.isNull(label.sale)
    await screenshots(page, 'label_selling_error')

    await typeNumber(page, '#sale-max-sales', '3')
    await choose(page, '[data-test="sale-auction"]', /^Second price/)
    await choose(page, '[data-test="ping-attributes.*"]', /^Bucketed/)
    await page.locator('[data-test="ping-new-attribute"]').fill('age')
    await page.locator('[data-test="ping-add-attribute"]').click()
    await choose(page, '[data-test="ping-attributes.age"]', /^Bucketed/)
    await page.locator('[data-test="save-selling"]').click()
    await toast(page, `Selling of ${label.name} saved`)

    const stored = (await Label.findOrFail(label.id)).sale!
    assert.equal(stored.auction, 'second_price')
    assert.equal(stored.max_sales, 3)
    assert.equal(stored.ping_policy?.['attributes.*'], 'bucketed')
    assert.equal(stored.ping_policy?.['attributes.age'], 'bucketed')
    // A name, e-mail or phone stays out of the policy: the sale never pings them anyway.
    assert.notProperty(stored.ping_policy ?? {}, 'contact.email')

    await page.reload()
    await page.locator('[data-test="selling-form"]').waitFor()
    await expectText(page, '[data-test="sale-auction"]', 'Second price', { contains: true })
    await expectText(page, '[data-test="ping-attributes.*"]', 'Bucketed', { contains: true })
    await expectText(page, '[data-test="ping-attributes.age"]', 'Bucketed', { contains: true })
    await screenshots(page, 'label_selling')
    await page.goto(`/operator/labels/${label.id}/edit`)
    await expectText(page, '[data-test="selling-summary"]', 'Up to 3 buyers', { contains: true })
    await expectText(page, '[data-test="selling-summary"]', 'second-price', { contains: true })
    await page.locator('[data-test="selling"]').scrollIntoViewIfNeeded()
    await screenshots(page, 'label_edit')
  })

  test('a buyer sees its own bid and that it won, never another buyer’s', async ({
    browserContext,
    client,
    assert,
    cleanup,
  }) => {
    const { lowBuyer, highBuyer, leadId } = await auctionedLead(client, cleanup)
    const user = await createPortalUser('buyer_user', { buyerId: highBuyer.buyer.id })
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto(`/buyer/leads/${leadId}`)

    await expectText(page, '[data-test="sale-status"]', 'Sold', { contains: true })
    await expectText(page, '[data-test="own-bid"]', '€17.00', { contains: true })
    await expectText(page, '[data-test="own-bid-result"]', 'you won')
    const attempts = await page.locator('[data-test="sale-attempts"] tbody').innerText()
    assert.include(attempts, 'Ping (bid)')
    assert.include(attempts, highBuyer.destination.name)
    const sale = await page.locator('[data-test="sale"]').innerText()
    assert.notInclude(sale, '€9.00')
    assert.notInclude(sale, lowBuyer.buyer.name)
    assert.notInclude(sale, lowBuyer.destination.name)
    assert.notInclude(sale, 'payout')
    assert.equal(await page.locator('[data-test="auction-bids"]').count(), 0)
    assert.equal(await page.locator('a[href^="/operator/"]').count(), 0)
    await assertUsable(page, assert)
    await page.locator('[data-test="sale"]').scrollIntoViewIfNeeded()
    await screenshots(page, 'buyer_lead_sale')
  })

  test('a publisher sees its lead’s sale status and payout, never the buyer or the price', async ({
    browserContext,
    client,
    assert,
    cleanup,
  }) => {
    const { world, highBuyer, leadId } = await auctionedLead(client, cleanup)
    const user = await createPortalUser('publisher_user', { publisherId: world.publisher.id })
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto(`/publisher/leads/${leadId}`)

    await expectText(page, '[data-test="sale-status"]', 'Sold')
    // 60 % of the €17.00 clearing price.
    await expectText(page, '[data-test="sale-payout"]', '€10.20', { contains: true })
    const sale = await page.locator('[data-test="sale"]').innerText()
    assert.notInclude(sale, '€17.00')
    assert.notInclude(sale, '€9.00')
    const body = await page.locator('body').innerText()
    assert.notInclude(body, highBuyer.buyer.name)
    assert.notInclude(body, '€17.00')
    assert.equal(await page.locator('[data-test="sale-attempts"]').count(), 0)
    await assertUsable(page, assert)
    await page.locator('[data-test="sale"]').scrollIntoViewIfNeeded()
    await screenshots(page, 'publisher_lead_sale')
  })
})
