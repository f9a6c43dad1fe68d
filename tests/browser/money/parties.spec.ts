import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { BrowserContext, Page } from 'playwright'
import { uuidv7 } from 'uuidv7'
import Buyer from '#models/buyer'
import User, { type Role } from '#models/user'
import PayoutRunService from '#services/money/payout_run_service'
import PayoutService from '#services/money/payout_service'
import { settleOnce } from '#services/money/settlement_clock'
import { createBuyer, createLabel, leadBody } from '#tests/support/fixtures'
import {
  assertUsable,
  createPortalUser,
  expectText,
  pageText,
  signedIn,
  toast,
} from '#tests/browser/helpers'
import { openPage } from '#tests/browser/leads/leads_support'
import {
  HOUR,
  disputable,
  openDispute,
  principalOf,
  sell,
} from '#tests/functional/money/disputes_support'
import { createRule, routingPublisher } from '#tests/functional/routing/routing_support'

const CONSENT_TEXT = leadBody('any').consent.text

/** A portal user of the publisher or the buyer who may act (read and submit). */
async function partyUser(role: Role, owner: { publisherId?: string; buyerId?: string }) {
  const user = await createPortalUser(role, owner)
  await User.query()
    .where('id', user.id)
    .update({ permissions: ['read', 'submit'] })
  return user
}

/** Another person, in a browser context of its own (its own session). */
async function personPage(context: BrowserContext, from: Page, email: string) {
  const other = await context.browser()!.newContext({ baseURL: new URL(from.url()).origin })
  const page = await other.newPage()
  await signedIn(page, email)
  return page
}

test.group('Money / the publisher’s and the buyer’s screens', () => {
  test('a buyer returns a lead from its page; the publisher sees it, checks the consent evidence and answers with a file; the buyer reads the answer', async ({
    browserContext,
    client,
    assert,
  }) => {
    const world = await disputable(client, { priceCents: 2500, payoutCents: 1800 })
    const buyerUser = await partyUser('buyer_user', { buyerId: world.buyer.id })
    const publisherUser = await partyUser('publisher_user', { publisherId: world.publisher.id })

    // The buyer's lead page: the return window's countdown, then the return itself.
    const page = await browserContext.newPage()
    await signedIn(page, buyerUser.email)
    await openPage(page, `/buyer/leads/${world.leadId}`)
    await expectText(page, '[data-test="return-window"]', 'days', { contains: true })
    await expectText(page, '[data-test="return-window"] [data-test="countdown"]', 'left', {
      contains: true,
    })
    await assertUsable(page, assert)
    await page.locator('[data-test="return-start"]').click()
    await page.locator('[data-test="return-reason"]').click()
    await page.getByRole('option', { name: 'Other (say why)' }).click()
    await page.locator('[data-test="return-submit"]').click()
    // "Other" needs the buyer's words.
    await expectText(page, '#return-details-error', 'details', { contains: true })
    await page.locator('[data-test="return-reason"]').click()
    await page.getByRole('option', { name: 'Contact details do not work' }).click()
    await page
      .locator('[data-test="return-details"]')
      .fill('The phone rings out; the e-mail bounces.')
    await assertUsable(page, assert)
    await page.locator('[data-test="return-submit"]').click()
    await toast(page, 'Return opened')
    await expectText(page, '[data-test="return-dispute"]', 'waiting for the publisher', {
      contains: true,
    })
    assert.equal(await page.locator('[data-test="return-start"]').count(), 0)
    await page.locator('[data-test="return-dispute-link"]').click()
    await page.waitForURL(/\/buyer\/disputes\/[0-9a-f-]{36}$/)
    const disputeId = page.url().split('/').at(-1)!
    await expectText(page, '[data-test="delivery-amount"]', '25.00', { contains: true })
    await expectText(page, '[data-test="thread-text"]', 'The phone rings out', { contains: true })
    await assertUsable(page, assert)

    // The publisher: the badge, the list with the time left, the dispute with its evidence.
    const publisherPage = await personPage(browserContext, page, publisherUser.email)
    await openPage(publisherPage, '/publisher')
    await expectText(publisherPage, '[data-test="nav-badge"]', '1')
    assert.equal(
      await publisherPage
        .getByRole('link', { name: 'Disputes 1, waiting for your answer' })
        .count(),
      1
    )
    await publisherPage.getByRole('link', { name: /^Disputes/ }).click()
    await publisherPage.waitForURL('**/publisher/disputes')
    await expectText(publisherPage, '[data-test="dispute-reason"]', 'Contact details do not work')
    await expectText(publisherPage, '[data-test="disputes"] [data-test="countdown"]', 'left', {
      contains: true,
    })
    await expectText(publisherPage, '[data-test="dispute-amount"]', '18.00', { contains: true })
    await assertUsable(publisherPage, assert)
    await publisherPage.locator('[data-test="dispute-link"]').click()
    await publisherPage.waitForURL(`**/publisher/disputes/${disputeId}`)
    await expectText(publisherPage, '[data-test="answer-due"]', 'left', { contains: true })
    await expectText(publisherPage, '[data-test="evidence-wording"]', CONSENT_TEXT)
    await expectText(publisherPage, '[data-test="verification"]', 'verifies', { contains: true })
    assert.equal(
      await publisherPage.locator('[data-test="proof-link"]').getAttribute('href'),
      `/publisher/leads/${world.leadId}/proof`
    )
    const publisherText = await pageText(publisherPage)
    assert.notInclude(publisherText, '25.00')
    assert.notInclude(publisherText, world.buyer.name)
    await assertUsable(publisherPage, assert)

    // The answer, with a file: kept with its SHA-256, which the thread shows.
    const evidence = Buffer.from('2026-11-25 10:02 called +31612345678: interested, confirmed\n')
    const digest = createHash('sha256').update(evidence).digest('hex')
    await publisherPage
      .locator('[data-test="answer-text"]')
      .fill('The consumer confirmed on the phone; the call log is attached.')
    await publisherPage
      .locator('[data-test="answer-files"]')
      .setInputFiles({ name: 'call-log.txt', mimeType: 'text/plain', buffer: evidence })
    await expectText(publisherPage, '[data-test="chosen-files"]', 'call-log.txt', {
      contains: true,
    })
    await publisherPage.locator('[data-test="send-answer"]').click()
    await toast(publisherPage, 'Answer sent')
    await expectText(publisherPage, '[data-test="dispute-status"]', 'responded')
    await expectText(publisherPage, '[data-test="thread-file"]', 'call-log.txt', {
      contains: true,
    })
    await expectText(publisherPage, '[data-test="thread-file-sha256"]', digest)
    // Answered: nothing waits for the publisher any more.
    assert.equal(await publisherPage.locator('[data-test="nav-badge"]').count(), 0)
    await assertUsable(publisherPage, assert)
    await publisherPage.context().close()

    // The buyer reads the answer and its file's digest; never the payout nor the publisher.
    await openPage(page, `/buyer/disputes/${disputeId}`)
    await expectText(page, '[data-test="thread-text"]', 'the call log is attached', {
      contains: true,
    })
    await expectText(page, '[data-test="thread-file-sha256"]', digest)
    await expectText(page, '[data-test="dispute-status"]', 'responded')
    const buyerText = await pageText(page)
    for (const hidden of ['18.00', 'Payout', world.publisher.name, world.publisher.slug]) {
      assert.notInclude(buyerText, hidden)
    }
  }).timeout(240_000)

  test('the publisher’s settlement: pending, payable and paid, its payouts and its sales as CSV', async ({
    browserContext,
    client,
    assert,
  }) => {
    const label = await createLabel()
    const world = await routingPublisher(label)
    const buyer = await createBuyer()
    await createRule({
      buyerId: buyer.id,
      publisherIds: [world.publisher.id],
      priceCents: 2500,
      payoutCents: 1800,
    })
    const windowOf = (hours: number) =>
      Buyer.query().where('id', buyer.id).update({ returnWindowHours: hours })
    // One sale final at once and paid out; two final an hour from now; three still returnable.
    await windowOf(0)
    const paid = await sell(client, world)
    await settleOnce(new Date())
    const runs = await app.container.make(PayoutRunService)
    await runs.run(principalOf('operator'), {
      label: label.slug,
      period_end: new Date().toISOString().slice(0, 10),
    })
    const payouts = await app.container.make(PayoutService)
    const [payout] = (
      await payouts.list(principalOf('operator'), { publisher_id: world.publisher.id })
    ).data
    await payouts.markPaid(principalOf('operator'), payout.id, 'SEPA-0042')
    await windowOf(1)
    const payable = [await sell(client, world), await sell(client, world)]
    await settleOnce(new Date(Date.now() + 2 * HOUR))
    await windowOf(168)
    for (let i = 0; i < 3; i++) await sell(client, world)

    const user = await partyUser('publisher_user', { publisherId: world.publisher.id })
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await openPage(page, '/publisher/settlement')
    await expectText(page, '[data-test="tile-pending_cents"] strong', '54.00', { contains: true })
    await expectText(page, '[data-test="tile-payable_cents"] strong', '36.00', { contains: true })
    await expectText(page, '[data-test="tile-paid_cents"] strong', '18.00', { contains: true })
    await expectText(page, '[data-test="tile-accepted"] strong', '6')
    await expectText(page, '[data-test="tile-returned"] strong', '0')
    await expectText(page, '[data-test="next-payout"]', 'Monthly', { contains: true })
    await expectText(page, '[data-test="payout-status"]', 'paid')
    await expectText(page, '[data-test="payout-amount"]', '18.00', { contains: true })
    // What a buyer pays is never the publisher's to see.
    assert.notInclude(await pageText(page), '25.00')
    await assertUsable(page, assert)

    // Its sales, as CSV: each sale's payout and where its money stands.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="sales-csv"]').click(),
    ])
    const csv = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/)
    assert.match(download.suggestedFilename(), /^sales-\d{4}-\d{2}-\d{2}\.csv$/)
    assert.equal(csv[0], 'lead_id,sold_at,payout_cents,currency,settlement,payout_id')
    assert.lengthOf(csv, 7)
    const settlementOf = (leadId: string) => csv.find((line) => line.startsWith(leadId))?.split(',')
    assert.deepEqual(settlementOf(paid)?.slice(2, 6), ['1800', 'EUR', 'paid_out', payout.id])
    assert.deepEqual(settlementOf(payable[0])?.slice(2, 5), ['1800', 'EUR', 'payable'])
    assert.equal(csv.filter((line) => line.includes(',pending,')).length, 3)
    assert.notInclude(csv.join('\n'), '2500')

    // The payout's own page: its lines, each sale it paid.
    await page.locator('[data-test="payout-link"]').click()
    await page.waitForURL(`**/publisher/payouts/${payout.id}`)
    await expectText(page, '[data-test="payout-status"]', 'paid', { contains: true })
    await expectText(page, '[data-test="payout"]', 'SEPA-0042', { contains: true })
    await expectText(page, '[data-test="line-lead"]', paid)
    await expectText(page, '[data-test="payout-lines"]', '18.00', { contains: true })
    // The payout belongs to "Settlement" in the menu.
    await expectText(page, '.portal-nav [aria-current="page"]', 'Settlement')
    await assertUsable(page, assert)
  }).timeout(240_000)

  test('each party reaches only its own: another publisher’s dispute and payout are not found, a buyer never reads a payout; empty pages say what comes next', async ({
    browserContext,
    client,
    assert,
  }) => {
    const world = await disputable(client, { priceCents: 2500, payoutCents: 1800 })
    const dispute = (await openDispute(client, world)).body().id as string
    const other = await disputable(client)
    const stranger = await partyUser('publisher_user', { publisherId: other.publisher.id })
    const otherBuyer = await partyUser('buyer_user', { buyerId: other.buyer.id })
    const buyerUser = await partyUser('buyer_user', { buyerId: world.buyer.id })

    const payout = uuidv7()
    await db.table('payouts').insert({
      id: payout,
      publisher_id: world.publisher.id,
      currency: 'EUR',
      period_end: new Date().toISOString().slice(0, 10),
      amount_cents: 1800,
      lead_count: 1,
      status: 'scheduled',
      created_at: new Date(),
      updated_at: new Date(),
    })

    // Another publisher: the dispute and the payout are not there; its own pages are empty and say what comes next.
    const page = await browserContext.newPage()
    await signedIn(page, stranger.email)
    for (const path of [`/publisher/disputes/${dispute}`, `/publisher/payouts/${payout}`]) {
      assert.equal((await page.goto(path))!.status(), 404, path)
      assert.notInclude(await pageText(page), 'Contact details do not work')
    }
    await openPage(page, '/publisher/disputes')
    await expectText(page, '[data-test="empty-state"]', 'When a buyer returns one of your leads', {
      contains: true,
    })
    await assertUsable(page, assert)
    await openPage(page, '/publisher/settlement')
    await expectText(page, '[data-test="empty-state"]', 'No payouts yet', { contains: true })
    await assertUsable(page, assert)
    await page.context().clearCookies()

    // Another buyer: not found either.
    await signedIn(page, otherBuyer.email)
    assert.equal((await page.goto(`/buyer/disputes/${dispute}`))!.status(), 404)
    await openPage(page, '/buyer/disputes')
    await expectText(page, '[data-test="empty-state"]', 'Return this lead', { contains: true })
    await assertUsable(page, assert)
    await page.context().clearCookies()

    // The dispute's buyer: its price everywhere, never the payout or the publisher; it withdraws.
    await signedIn(page, buyerUser.email)
    const hidden = ['18.00', 'Payout', 'payout', world.publisher.name, world.publisher.slug]
    await openPage(page, '/buyer/disputes')
    await expectText(page, '[data-test="dispute-amount"]', '25.00', { contains: true })
    for (const word of hidden) assert.notInclude(await pageText(page), word)
    await assertUsable(page, assert)
    await openPage(page, `/buyer/disputes/${dispute}`)
    await expectText(page, '[data-test="delivery-amount"]', '25.00', { contains: true })
    for (const word of hidden) assert.notInclude(await pageText(page), word)
    await page.locator('[data-test="withdraw"]').click()
    await page.locator('[data-test="confirm-withdraw"]').click()
    await toast(page, 'Return withdrawn')
    await expectText(page, '[data-test="dispute-status"]', 'withdrawn')
    await expectText(page, '[data-test="decision"]', 'withdrew', { contains: true })
    await assertUsable(page, assert)

    // Its statement: what it bought at its price, and the CSV of the same.
    await openPage(page, '/buyer/statement')
    await expectText(page, '[data-test="statement-accepted"] strong', '25.00', { contains: true })
    await expectText(page, '[data-test="statement-net"] strong', '25.00', { contains: true })
    for (const word of hidden) assert.notInclude(await pageText(page), word)
    await assertUsable(page, assert)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="statement-csv"]').click(),
    ])
    const csv = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/)
    assert.equal(csv[0], 'booked_at,lead_id,kind,amount_cents,currency')
    assert.include(csv[1], `${world.leadId},accepted,2500,EUR`)
    // Last month holds nothing for it yet: the page says so.
    await page.getByRole('button', { name: 'Last month' }).click()
    await expectText(page, '[data-test="empty-state"]', 'Nothing in this period', {
      contains: true,
    })
    await assertUsable(page, assert)
  }).timeout(240_000)
})
