import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import transmit from '@adonisjs/transmit/services/main'
import type { Page } from 'playwright'
import User from '#models/user'
import { liveChannel } from '#services/reports/live_feed'
import { createLabel, livePublisher } from '#tests/support/fixtures'
import { linkIn } from '#tests/support/mail_parts'
import { mailTo } from '#tests/support/mailbox'
import {
  PASSWORD,
  assertUsable,
  createOperator,
  createPortalUser,
  expectText,
  pageText,
  signedIn,
} from '#tests/browser/helpers'
import { deliver } from '#tests/browser/leads/leads_support'
import { acceptedFact } from '#tests/functional/reports/reports_support'

/** Screenshots of each dashboard at a desktop's and a phone's width, for a person to look at. */
async function screenshots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(300)
    // A full page with its charts: past Playwright's 30 s on a slow machine.
    await page.screenshot({
      path: `/tmp/dash_${name}_${width}.png`,
      fullPage: true,
      timeout: 90_000,
    })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** The figure a tile shows, as text. */
const tileValue = (page: Page, tile: string) =>
  page.locator(`[data-test="${tile}"] [data-test="kpi-value"]`).innerText()

test.group('Reports / dashboards', () => {
  test('the operator’s dashboard shows tiles, charts and the table, opens a row’s leads and exports the table', async ({
    browserContext,
    client,
    assert,
  }) => {
    const label = await createLabel()
    const world = await livePublisher()
    world.publisher.labelId = label.id
    await world.publisher.save()
    await deliver(client, world)
    await deliver(client, world)
    await deliver(client, world, { consent: { given: false } })
    const operator = await createOperator()

    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await page.goto('/operator/reports?period=today')
    await page.locator('[data-test="kpi-tiles"]').waitFor({ timeout: 30_000 })
    await expectText(page, '[data-test="page-title"]', 'Dashboard')
    await expectText(page, '.portal-nav [aria-current="page"]', 'Reports')
    // Tiles with the move against the previous period, money included for the operator.
    const tiles = await page.locator('[data-test="kpi-tiles"]').innerText()
    for (const words of ['Leads received', 'Acceptance', 'Revenue', 'Margin', 'Processing'])
      assert.include(tiles, words)
    // Charts drawn by ECharts (SVG), and the table with this publisher's row.
    await page.locator('[data-test="trend-chart"] svg').first().waitFor()
    await page.locator('[data-test="bar-chart"] svg').first().waitFor()
    const row = page.locator('[data-test="kpi-table"] tr').filter({ hasText: world.publisher.slug })
    await row.waitFor()
    assert.equal((await row.locator('[data-test="row-volume"]').innerText()).trim(), '3')
    await assertUsable(page, assert)
    await screenshots(page, 'operator')

    // Grouped by label, and by channel, from the select.
    await page.locator('[data-test="group-select"]').click()
    await page.getByRole('option', { name: 'Label' }).click()
    await page.waitForURL(/group_by=label/)
    await page.locator('[data-test="kpi-table"] tr').filter({ hasText: label.slug }).waitFor()

    // The export: the same figures as a CSV file.
    const csvHref = await page.locator('[data-test="export-kpis-csv"]').getAttribute('href')
    const csv = await page.request.get(csvHref!)
    assert.equal(csv.status(), 200)
    assert.include(csv.headers()['content-type'], 'text/csv')
    assert.include(await csv.text(), label.slug)
    const json = await page.request.get(
      (await page.locator('[data-test="export-kpis-json"]').getAttribute('href'))!
    )
    assert.equal(json.status(), 200)
    assert.equal((await json.json()).group_by, 'label')

    // Drill down: the row opens the leads explorer filtered on that label and the period.
    await page
      .locator('[data-test="kpi-table"] tr')
      .filter({ hasText: label.slug })
      .locator('[data-test="row-leads"]')
      .click()
    await page.waitForURL(/\/operator\/leads\?label=/)
    assert.include(page.url(), `label=${label.slug}`)
  })

  test('a period without leads says what to do next', async ({ browserContext, assert }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await page.goto('/operator/reports?period=custom&from=2001-01-01&to=2001-01-07')
    await expectText(page, '[data-test="empty-state"] h2', 'No leads in this period')
    assert.include(await pageText(page), 'Invite a publisher')
    await assertUsable(page, assert)
    await screenshots(page, 'operator_empty')
  })

  test('a lead posted through the API shows on the publisher’s open dashboard without a reload', async ({
    browserContext,
    client,
    assert,
  }) => {
    const label = await createLabel()
    label.branding = { primary_color: '#7c2d12' }
    await label.save()
    const world = await livePublisher()
    world.publisher.labelId = label.id
    await world.publisher.save()
    const user = await createPortalUser('publisher_user', { publisherId: world.publisher.id })

    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/publisher/dashboard')
    await expectText(page, '[data-test="live-status"]', 'Live', { contains: true })
    await expectText(page, '[data-test="brand"]', label.name)
    await expectText(page, '[data-test="empty-state"] h2', 'No leads yet today')
    await assertUsable(page, assert)
    await screenshots(page, 'publisher_empty')
    assert.equal(await tileValue(page, 'tile-volume'), '0')
    // A mark on the window: a reload would take it away.
    await page.evaluate('window.__stillHere = true')
    // The figures come with the message: the page asks the server for nothing.
    const asked: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/publisher/dashboard') asked.push(request.url())
    })

    const started = Date.now()
    await deliver(client, world)
    await page.waitForFunction(
      `document.querySelector('[data-test="tile-volume"] [data-test="kpi-value"]')?.textContent.trim() === '1'`,
      undefined,
      { timeout: 2000 }
    )
    const elapsed = Date.now() - started
    console.log(`  the lead reached the open dashboard in ${elapsed} ms`)
    assert.isTrue(await page.evaluate('window.__stillHere === true'))
    assert.equal(await tileValue(page, 'tile-accepted'), '1')

    // A rejected lead: its reason shows, still without a reload.
    await deliver(client, world, { consent: { given: false } })
    await page.waitForFunction(
      `document.querySelector('[data-test="tile-volume"] [data-test="kpi-value"]')?.textContent.trim() === '2'`,
      undefined,
      { timeout: 2000 }
    )
    await page.locator('[data-test="reasons"]').waitFor()
    assert.isTrue(await page.evaluate('window.__stillHere === true'))
    assert.deepEqual(asked, [])
    // A publisher never sees revenue or margin.
    const text = await pageText(page)
    for (const hidden of ['Revenue', 'Margin']) assert.notInclude(text, hidden)
    await page.locator('[data-test="trend-chart"] svg').first().waitFor()
    await assertUsable(page, assert)
    await screenshots(page, 'publisher_live')
  })

  test('a change heard without figures (an older server) makes the open dashboard read them itself', async ({
    browserContext,
    assert,
  }) => {
    const world = await livePublisher()
    const user = await createPortalUser('publisher_user', { publisherId: world.publisher.id })
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/publisher/dashboard')
    await expectText(page, '[data-test="live-status"]', 'Live', { contains: true })
    assert.equal(await tileValue(page, 'tile-volume'), '0')
    await page.evaluate('window.__stillHere = true')
    const asked: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/publisher/dashboard') asked.push(request.url())
    })

    // A lead the live feed was not told about, then the bare change an older server sends.
    const at = new Date()
    await db.table('lead_facts').insert(acceptedFact(world.publisher, at))
    // "Live" shows once the stream is open; its subscription may still be on its way.
    for (let tries = 0; tries < 20 && asked.length === 0; tries++) {
      transmit.broadcast(liveChannel(world.publisher.id), { change: 'leads', environment: 'live' })
      await page.waitForTimeout(250)
    }
    await page.waitForFunction(
      `document.querySelector('[data-test="tile-volume"] [data-test="kpi-value"]')?.textContent.trim() === '1'`,
      undefined,
      { timeout: 3000 }
    )
    assert.isAtLeast(asked.length, 1)
    assert.isTrue(await page.evaluate('window.__stillHere === true'))
  })

  test('a label’s manager sees its label’s publishers only, in its brand', async ({
    browserContext,
    client,
    assert,
  }) => {
    const label = await createLabel()
    label.branding = { primary_color: '#1d4ed8' }
    await label.save()
    const ours = await livePublisher()
    ours.publisher.labelId = label.id
    await ours.publisher.save()
    const elsewhere = await livePublisher()
    await deliver(client, ours)
    await deliver(client, elsewhere)
    const manager = await createPortalUser('label_manager')
    await User.query().where('id', manager.id).update({ label_id: label.id })

    const page = await browserContext.newPage()
    await signedIn(page, manager.email)
    await page.goto('/label_manager?period=today')
    await page.locator('[data-test="kpi-tiles"]').waitFor({ timeout: 30_000 })
    await expectText(page, '[data-test="brand"]', label.name)
    await page
      .locator('[data-test="kpi-table"] tr')
      .filter({ hasText: ours.publisher.slug })
      .waitFor()
    const text = await pageText(page)
    assert.notInclude(text, elsewhere.publisher.slug)
    for (const hidden of ['Revenue', 'Margin']) assert.notInclude(text, hidden)
    await assertUsable(page, assert)
    await screenshots(page, 'label_manager')

    // Another portal answers 404 to a label manager.
    const operatorPage = await page.request.get('/operator/reports')
    assert.equal(operatorPage.status(), 404)
  })

  test('the operator invites a label’s manager, who opens the portal on its label’s dashboard', async ({
    browserContext,
    assert,
  }) => {
    const label = await createLabel()
    label.branding = { primary_color: '#6d28d9' }
    await label.save()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    await page.goto('/operator/users')
    await page.locator('[data-test="invite-user"]').waitFor({ timeout: 30_000 })

    const address = `manager-${label.slug}@leadgate.test`
    await page.getByLabel('E-mail').fill(address)
    await page.locator('[data-test="invite-role"]').click()
    await page.getByRole('option', { name: 'Label manager' }).click()
    await page.locator('[data-test="invite-label"]').click()
    await page.getByRole('option', { name: label.name }).click()
    await assertUsable(page, assert)
    await page.locator('[data-test="invite-submit"]').click()
    await expectText(page, '[data-test="user-email"]', address)
    const manager = await User.findByOrFail('email', address)
    assert.equal(manager.role, 'label_manager')
    assert.equal(manager.labelId, label.id)

    // The invitation opens the manager's own portal: its label's dashboard, in its brand.
    const other = await browserContext.browser()!.newContext({
      baseURL: new URL(page.url()).origin,
    })
    const managerPage = await other.newPage()
    for (let tries = 0; mailTo(address).length === 0 && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 25))
    const mail = mailTo(address).at(-1)
    assert.exists(mail, 'the invitation e-mail')
    await managerPage.goto(new URL(linkIn(mail!, '/welcome/')!.url).pathname)
    await managerPage.getByLabel('New password (at least 12 characters)').fill(PASSWORD)
    await managerPage.getByLabel('Repeat the new password').fill(PASSWORD)
    await managerPage.getByRole('button', { name: 'Set password and open the portal' }).click()
    await managerPage
      .locator('[data-test="kpi-tiles"], [data-test="empty-state"]')
      .first()
      .waitFor({
        timeout: 30_000,
      })
    assert.equal(new URL(managerPage.url()).pathname, '/label_manager')
    await expectText(managerPage, '[data-test="brand"]', label.name)
    await assertUsable(managerPage, assert)
    await screenshots(managerPage, 'label_manager_first')
    await other.close()
  })
})
