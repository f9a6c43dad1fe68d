import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright'
import Publisher from '#models/publisher'
import AcceptanceService from '#services/money/acceptance_service'
import { createLabel, operatorKey } from '#tests/support/fixtures'
import { soldLead } from '#tests/support/money'
import {
  assertUsable,
  confirmDialog,
  createOperator,
  expectText,
  signedIn,
  toast,
  typeNumber,
} from '#tests/browser/helpers'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { disputable, openDispute, sell } from '#tests/functional/money/disputes_support'

/** Today in UTC, as the run form's period end takes it. */
const today = () => new Date().toISOString().slice(0, 10)

/**
 * Opens a portal page and waits for its title. A page's first visit waits for Vite to transform
 * it and its components, which on a busy machine takes longer than the usual waits.
 */
async function openPage(page: Page, path: string) {
  await page.goto(path)
  await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 90_000 })
}

/** Waits for the page of that title: after a click, the next page may be transformed first. */
async function titled(page: Page, title: string) {
  await page
    .locator('[data-test="page-title"]')
    .filter({ hasText: title })
    .first()
    .waitFor({ state: 'visible', timeout: 90_000 })
}

/**
 * A PrimeVue Select: open it, pick the option of that name. The first one of a page may wait
 * for its scripts on a busy machine (a whole-suite run once spent 30 s there).
 */
async function choose(page: Page, selector: string, option: string) {
  await page.locator(selector).click({ timeout: 90_000 })
  await page.getByRole('option', { name: option, exact: true }).click()
}

test.group('Money / the operator’s screens', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the settlement overview and a publisher’s settlement; an adjustment; an upheld dispute takes the payout out of pending', async ({
    browserContext,
    client,
    assert,
  }) => {
    // Two sales of 25.00 earning the publisher 18.00 each, under a label of their own; the
    // buyer returns one, the publisher answers, and the operator decides.
    const world = await disputable(client, {
      priceCents: 2500,
      payoutCents: 1800,
      policy: { response_hours: 72, decision_hours: 120, default_outcome: 'upheld' },
    })
    await sell(client, world)
    const opened = await openDispute(client, world, {
      reason: 'outside_target_audience',
      details: 'Lives in a flat, not a house.',
    })
    opened.assertStatus(201)
    const disputeId = opened.body().id as string
    const answer = await client
      .post(`/v1/disputes/${disputeId}/responses`)
      .bearerToken(world.key)
      .json({ text: 'The consumer said homeowner on our form.' })
    answer.assertStatus(201)
    const label = world.label!
    const publisher = world.publisher

    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    // The overview, narrowed to the label: the publisher's figures side by side.
    await openPage(page, `/operator/settlement?label=${label.slug}`)
    await titled(page, 'Settlement')
    const row = page
      .locator('[data-test="settlement"] tbody tr')
      .filter({ hasText: publisher.name })
    await row.waitFor()
    await expectText(page, '[data-test="row-pending"]', '€36.00')
    await expectText(page, '[data-test="row-accepted"]', '2')
    await expectText(page, '[data-test="row-disputes"]', '1')
    // The margin: what buyers pay less what the publisher earns, 2 × (25 − 18).
    await expectText(page, '[data-test="row-margin"]', '€14.00')
    await page.locator('[data-test="margin-pending"]').waitFor()
    await assertUsable(page, assert)

    // Sorted by pending, largest first: the URL says so and the list still shows the row.
    await page.locator('th').filter({ hasText: 'Pending' }).click()
    await page.waitForURL(/sort=pending/)
    await row.waitFor()

    // Drill down: the same figures as GET /v1/settlement?publisher_id=.
    await row.locator('[data-test="publisher-link"]').click()
    await titled(page, `${publisher.name}: settlement`)
    const api = await client
      .get(`/v1/settlement?publisher_id=${publisher.id}`)
      .bearerToken(await operatorKey())
    assert.equal(api.body().pending_cents, 3600)
    await expectText(page, '[data-test="settlement-pending"]', '€36.00', { contains: true })
    await expectText(page, '[data-test="settlement-accepted"]', '2')
    await expectText(page, '[data-test="settlement-disputes"]', '1')
    await page.locator('[data-test="next-payout"]').waitFor()
    await assertUsable(page, assert)

    // A manual adjustment: refused without a note, then booked after the confirmation.
    await typeNumber(page, '#adjustment-amount', '5')
    await page.locator('[data-test="save-adjustment"]').click()
    await confirmDialog(page, 'Book the adjustment')
    await expectText(page, '#adjustment-note-error', 'note', { contains: true })
    await page.locator('#adjustment-note').fill('Bonus for November')
    await page.locator('[data-test="save-adjustment"]').click()
    await confirmDialog(page, 'Book the adjustment')
    await toast(page, `${publisher.name} credited €5.00`)
    await expectText(page, '[data-test="settlement-payable"]', '€5.00', { contains: true })

    // The disputes list, by publisher: the running deadline as a countdown.
    await openPage(page, `/operator/disputes?publisher_id=${publisher.id}`)
    await titled(page, 'Disputes')
    await expectText(page, '[data-test="dispute-status"]', 'responded')
    await expectText(page, '[data-test="countdown"]', 'left', { contains: true })
    const due = await page.locator('[data-test="countdown"]').first().getAttribute('title')
    assert.match(due ?? '', /^Decision due .* UTC$/)
    await assertUsable(page, assert)

    // The dispute's page: both figures, the thread; upheld after the confirmation.
    await page.locator('[data-test="dispute-link"]').first().click()
    await page.locator('[data-test="decide-form"]').waitFor({ timeout: 90_000 })
    await expectText(page, '[data-test="delivery-amount"]', '€25.00', { contains: true })
    await expectText(page, '[data-test="delivery-amount"]', '€18.00', { contains: true })
    await assertUsable(page, assert)
    await page.locator('label[for="decide-upheld"]').click()
    await page.locator('#decide-note').fill('The buyer showed the consumer rents.')
    await page.locator('[data-test="decide-submit"]').click()
    await confirmDialog(page, 'Uphold')
    await toast(page, 'Dispute upheld')
    await expectText(page, '[data-test="dispute-status"]', 'upheld')
    assert.equal((await db.from('disputes').where('id', disputeId).first()).status, 'upheld')

    // Nobody touched the money: the publisher's pending figure dropped by the payout.
    await openPage(page, `/operator/settlement/${publisher.id}`)
    await expectText(page, '[data-test="settlement-pending"]', '€18.00', { contains: true })
    await expectText(page, '[data-test="settlement-returned"]', '1')
    await expectText(page, '[data-test="settlement-disputes"]', '0')
  }).timeout(300_000)

  test('runs payouts for a label, marks one paid (its leads are paid out) and another failed', async ({
    browserContext,
    client,
    assert,
  }) => {
    // Two publishers of one label, each with a final sale of 18.00 (a return window of 0).
    const label = await createLabel()
    const worlds = []
    for (let i = 0; i < 2; i++) {
      const sold = await soldLead(client, { priceCents: 2500, payoutCents: 1800, windowHours: 0 })
      await Publisher.query().where('id', sold.publisher.id).update({ labelId: label.id })
      worlds.push(sold)
    }
    await (await app.container.make(AcceptanceService)).closeWindows(new Date(), 500)
    const [paid, failed] = worlds

    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await openPage(page, '/operator/payouts')
    await titled(page, 'Payouts')
    await assertUsable(page, assert)

    // Run now for the label, up to today: the answer comes as a toast.
    await choose(page, '[data-test="run-label"]', label.name)
    await page.locator('#run-period-end').fill(today())
    await page.keyboard.press('Escape')
    await page.locator('[data-test="run-payouts"]').click()
    // A run takes its lock and pays each publisher in its own transaction: allow it a moment.
    await page.locator('.p-toast-message').waitFor({ timeout: 30_000 })
    await toast(page, 'Payout run done: 2 payouts created, €36.00')

    // The paid one: from the list by its publisher, marked paid with a reference.
    await openPage(page, `/operator/payouts?publisher_id=${paid.publisher.id}`)
    await expectText(page, '[data-test="payout-amount"]', '€18.00')
    await expectText(page, '[data-test="payout-leads"]', '1')
    await page.locator('[data-test="payout-link"]').click()
    await page.locator('[data-test="payout-lines"]').waitFor({ timeout: 90_000 })
    await assertUsable(page, assert)
    // Its period in the header is worded as the list words it: a first payout runs "up to" a day.
    const period = await page.locator('.page-header p.muted').first().innerText()
    assert.match(period, /^Period up to \d{1,2} [A-Z][a-z]{2} \d{4}$/)
    await page.locator('[data-test="mark-paid"]').click()
    await page.locator('[data-test="confirm-mark-paid"]').click()
    await expectText(page, '#paid-reference-error', 'reference', { contains: true })
    await page.locator('#paid-reference').fill('SEPA-4711')
    await page.locator('[data-test="confirm-mark-paid"]').click()
    await toast(page, 'Payout of €18.00 marked paid: its lead is paid out')
    await expectText(page, '[data-test="payout-status"]', 'paid')
    await expectText(page, '[data-test="payout-reference"]', 'SEPA-4711')

    // Its lead shows paid_out on the lead page.
    await page.locator('[data-test="line-lead"]').click()
    await page.locator('[data-test="lead-status"]').waitFor({ timeout: 90_000 })
    await expectText(page, '[data-test="lead-status"]', 'paid out')

    // The other: marked failed with a reason; its sale goes back to the next run.
    const other = await db.from('payouts').where('publisher_id', failed.publisher.id).firstOrFail()
    await openPage(page, `/operator/payouts/${other.id}`)
    await page.locator('[data-test="mark-failed"]').click()
    await page.locator('#failed-reason').fill('The IBAN was closed.')
    await page.locator('[data-test="confirm-mark-failed"]').click()
    await toast(page, 'Payout marked failed')
    await expectText(page, '[data-test="failure"]', 'The IBAN was closed.', { contains: true })
    const fact = await db.from('lead_facts').where('lead_id', failed.leadId).firstOrFail()
    assert.isNull(fact.payout_id)
    assert.equal(fact.settlement, 'payable')
  }).timeout(300_000)

  test('sets a label’s settlement rules from the labels page', async ({
    browserContext,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    // From the label's edit page, its settlement rules section.
    await openPage(page, `/operator/labels/${label.id}/edit`)
    await page.locator('[data-test="settlement-rules-link"]').click()
    await titled(page, `Settlement rules of ${label.name}`)
    await assertUsable(page, assert)

    await choose(page, '[data-test="rules-schedule"]', 'Weekly, on Mondays')
    await typeNumber(page, '#rules-minimum', '50')
    await typeNumber(page, '#rules-response', '48')
    await typeNumber(page, '#rules-decision', '96')
    await choose(page, '[data-test="rules-default-outcome"]', 'Rejected: the sale stands')
    await page.locator('[data-test="save-settlement-rules"]').click()
    await toast(page, `Settlement rules of ${label.name} saved`)

    const stored = await db.from('settlement_policies').where('label_id', label.id).firstOrFail()
    assert.deepInclude(stored, {
      payout_schedule: 'weekly',
      response_hours: 48,
      decision_hours: 96,
      default_outcome: 'rejected',
    })
    assert.equal(Number(stored.minimum_payout_cents), 5000)
    // What the page shows after the save is what was stored.
    assert.equal(await page.locator('#rules-response').inputValue(), '48')
  })

  test('the lists say what to do when they are empty', async ({ browserContext, assert }) => {
    const label = await createLabel()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    // A label without publishers, a publisher without disputes or payouts.
    await openPage(page, `/operator/settlement?label=${label.slug}`)
    await expectText(page, '[data-test="empty-state"] h2', 'No publisher in this label')
    await assertUsable(page, assert)
    const { id } = await Publisher.query().firstOrFail()
    await openPage(page, `/operator/disputes?publisher_id=${id}&status=withdrawn&cursor=junk`)
    await page.locator('[data-test="page-title"]').waitFor()
    await openPage(page, `/operator/payouts?status=failed&publisher_id=${label.id}`)
    await expectText(page, '[data-test="empty-state"] h2', 'No payout matches')
    await assertUsable(page, assert)
  })
})
