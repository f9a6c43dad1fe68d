import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { BrowserContext, Page } from 'playwright'
import Buyer from '#models/buyer'
import { createBuyer, operatorKey } from '#tests/support/fixtures'
import {
  assertUsable,
  createOperator,
  createPortalUser,
  expectText,
  signedIn,
  toast,
  typeNumber,
} from '#tests/browser/helpers'
import { openPage } from '#tests/browser/leads/leads_support'

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

/** The buyer's portal user, in a browser context of its own (its own session). */
async function buyerPage(context: BrowserContext, from: Page, buyerId: string) {
  const user = await createPortalUser('buyer_user', { buyerId })
  const other = await context.browser()!.newContext({ baseURL: new URL(from.url()).origin })
  const page = await other.newPage()
  await signedIn(page, user.email)
  return page
}

const storedFunds = (buyerId: string) =>
  db.from('buyer_funds').where('buyer_id', buyerId).select('mode', 'currency', 'balance_cents')
const storedTopUps = (buyerId: string) =>
  db.from('buyer_top_ups').where('buyer_id', buyerId).select('reference', 'amount_cents')

test.group('Money / buyer funds in the portals', () => {
  test('the operator sets prepaid EUR and records a top-up; the buyer sees its balance and the top-up', async ({
    browserContext,
    assert,
  }) => {
    const buyer = await createBuyer()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    // Before a billing mode the buyer is not limited, and its page says so.
    const buyerSide = await buyerPage(browserContext, page, buyer.id)
    await openPage(buyerSide, '/buyer/funds')
    await expectText(buyerSide, '[data-test="empty-state"]', 'You are not limited by funds', {
      contains: true,
    })
    await expectText(buyerSide, 'nav a', 'Funds', { contains: true })
    await assertUsable(buyerSide, assert)
    await screenshots(buyerSide, 'buyer_funds_empty')

    await openPage(page, `/operator/buyers/${buyer.id}`)
    // The page's first visit after a change waits for Vite; on a busy machine longer than 30 s.
    await page.locator('#billing-currency').waitFor({ state: 'visible', timeout: 90_000 })
    await expectText(page, '[data-test="funds-unlimited"]', 'Not limited by funds', {
      contains: true,
    })
    await assertUsable(page, assert)
    await screenshots(page, 'operator_buyer_funds_empty')
    await page.locator('#billing-mode-prepaid').check()
    await page.locator('#billing-currency').fill('eur')
    await page.locator('[data-test="save-billing"]').click()
    await toast(page, 'is billed prepaid in EUR')
    assert.deepEqual(await storedFunds(buyer.id), [
      { mode: 'prepaid', currency: 'EUR', balance_cents: '0' },
    ])

    await typeNumber(page, '#top-up-amount', '500')
    await page.locator('#top-up-reference').fill('TRF-2026-12-0001')
    await page.locator('[data-test="save-top-up"]').click()
    await toast(page, 'Top-up TRF-2026-12-0001 recorded')
    await expectText(page, '[data-test="funds-balance"]', '€500.00')
    await expectText(page, '[data-test="funds-available"]', '€500.00')
    await expectText(page, '[data-test="funds-mode"]', 'Prepaid')
    await expectText(page, '[data-test="funds-figures"]', 'In EUR', { contains: true })
    await expectText(page, '[data-test="top-up-reference"]', 'TRF-2026-12-0001')
    assert.deepEqual(await storedTopUps(buyer.id), [
      { reference: 'TRF-2026-12-0001', amount_cents: '50000' },
    ])
    await assertUsable(page, assert)
    await screenshots(page, 'operator_buyer_funds')

    await openPage(buyerSide, '/buyer/funds')
    await expectText(buyerSide, '[data-test="funds-balance"]', '€500.00')
    await expectText(buyerSide, '[data-test="funds-available"]', '€500.00')
    await expectText(buyerSide, '[data-test="funds-reserved"]', '€0.00')
    await expectText(buyerSide, '[data-test="top-up-reference"]', 'TRF-2026-12-0001')
    await expectText(buyerSide, '[data-test="top-ups"]', '€500.00', { contains: true })
    await assertUsable(buyerSide, assert)
    await screenshots(buyerSide, 'buyer_funds')
    await buyerSide.context().close()
  }).timeout(240_000)

  test('a repeated reference is refused next to its field with nothing stored; a credit limit and the duplicate window are saved', async ({
    browserContext,
    client,
    assert,
  }) => {
    const buyer = await createBuyer()
    const key = await operatorKey()
    ;(
      await client
        .patch(`/v1/buyers/${buyer.id}`)
        .bearerToken(key)
        .json({ billing: { mode: 'prepaid', currency: 'EUR' } })
    ).assertStatus(200)
    ;(
      await client
        .post(`/v1/buyers/${buyer.id}/funds/top-ups`)
        .bearerToken(key)
        .json({ amount_cents: 20000, reference: 'TRF-7' })
    ).assertStatus(201)

    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await openPage(page, `/operator/buyers/${buyer.id}`)
    await expectText(page, '[data-test="funds-balance"]', '€200.00')

    await typeNumber(page, '#top-up-amount', '75')
    await page.locator('#top-up-reference').fill('TRF-7')
    await page.locator('[data-test="save-top-up"]').click()
    await expectText(page, '#top-up-reference-error', 'is booked for this buyer already', {
      contains: true,
    })
    assert.equal(await page.locator('#top-up-reference').getAttribute('aria-invalid'), 'true')
    assert.deepEqual(await storedTopUps(buyer.id), [{ reference: 'TRF-7', amount_cents: '20000' }])
    assert.deepEqual(await storedFunds(buyer.id), [
      { mode: 'prepaid', currency: 'EUR', balance_cents: '20000' },
    ])
    await expectText(page, '[data-test="funds-balance"]', '€200.00')
    await assertUsable(page, assert)
    await screenshots(page, 'operator_buyer_funds_refused')

    // Credit with a limit of 1,000.00: the balance stays, available grows by the limit.
    await page.locator('#billing-mode-credit').check()
    await typeNumber(page, '#billing-credit-limit', '1000')
    await page.locator('[data-test="save-billing"]').click()
    await toast(page, 'is billed credit in EUR')
    await expectText(page, '[data-test="funds-credit-limit"]', '€1,000.00')
    await expectText(page, '[data-test="funds-available"]', '€1,200.00')
    const [account] = await db
      .from('buyer_funds')
      .where('buyer_id', buyer.id)
      .select('mode', 'credit_limit_cents', 'balance_cents')
    assert.deepEqual(account, {
      mode: 'credit',
      credit_limit_cents: '100000',
      balance_cents: '20000',
    })

    await typeNumber(page, '#buyer-duplicate-window', '30')
    await page.locator('[data-test="save-buyer"]').click()
    await toast(page, 'saved')
    assert.equal((await Buyer.findOrFail(buyer.id)).duplicateWindowDays, 30)
  }).timeout(240_000)
})
