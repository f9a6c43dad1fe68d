import { test } from '@japa/runner'
import type { BrowserContext, Page } from 'playwright'
import app from '@adonisjs/core/services/app'
import AccessLogEntry from '#models/access_log_entry'
import User from '#models/user'
import UserService from '#services/access/user_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { createPublisher } from '#tests/support/fixtures'
import { linkIn } from '#tests/support/mail_parts'
import { mailTo } from '#tests/support/mailbox'
import {
  PASSWORD,
  createOperator,
  createPortalUser,
  expectText,
  pageWidth,
  seriousAxeViolations,
  signIn,
} from '#tests/browser/helpers'

/** Readable by axe-core, and no wider than a phone at a phone's width. */
async function assertAccessible(page: Page, assert: any) {
  assert.deepEqual(await seriousAxeViolations(page), [], page.url())
  await page.setViewportSize({ width: 390, height: 844 })
  assert.isAtMost(await pageWidth(page), 390, page.url())
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** A publisher user who manages its team (read and submit). */
async function publisherAdmin(publisherId: string) {
  const user = await createPortalUser('publisher_user', { publisherId })
  user.permissions = ['read', 'submit']
  await user.save()
  return user
}

async function mailLink(address: string, path: string) {
  const deadline = Date.now() + 5000
  while (mailTo(address).length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const link = mailTo(address).at(-1) && linkIn(mailTo(address).at(-1)!, path)
  if (!link) throw new Error(`No ${path} link reached ${address}`)
  return new URL(link.url).pathname
}

async function freshContext(context: BrowserContext, page: Page) {
  return context.browser()!.newContext({ baseURL: new URL(page.url()).origin })
}

/** A change sent by hand with the session's CSRF token, as a crafted form would; no redirect followed. */
async function send(page: Page, method: 'patch' | 'post', url: string, data: object) {
  const xsrf = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
  return page.request[method](url, {
    data,
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf?.value ?? ''), 'Referer': '/publisher' },
    maxRedirects: 0,
  })
}

test.group('People / users', () => {
  test('revoked user loses its open session', async ({ browserContext, assert }) => {
    const publisher = await createPublisher()
    const admin = await publisherAdmin(publisher.id)
    const page = await browserContext.newPage()
    await signIn(page, admin.email)
    await page.locator('[data-test="current-user"]').waitFor({ timeout: 30_000 })
    await page.goto('/publisher/users')
    await page.locator('[data-test="users"]').waitFor({ timeout: 30_000 })
    await expectText(page, '[data-test="page-title"]', 'Users')
    await assertAccessible(page, assert)

    // The admin invites a colleague who delivers only; the invitation goes by e-mail.
    const address = `colleague-${publisher.slug}@publisher.example`
    await page.getByLabel('E-mail').fill(address)
    await page.locator('[data-test="invite-access"]').click()
    await page.getByRole('option', { name: 'Deliver leads only' }).click()
    await page.locator('[data-test="invite-submit"]').click()
    await expectText(page, '[data-test="user-email"]', address)
    await expectText(page, `[data-test="status-${address}"]`, 'invited')
    const colleague = await User.findByOrFail('email', address)
    assert.equal(colleague.role, 'publisher_user')
    assert.equal(colleague.publisherId, publisher.id)
    assert.deepEqual(colleague.permissions, ['submit'])
    const created = await AccessLogEntry.query()
      .where('action', 'user.created')
      .where('subject_id', colleague.id)
      .firstOrFail()
    assert.equal(created.actor, `publisher:${admin.id}`)

    // Resending makes a new link; the colleague accepts it in a browser of its own.
    await page.locator('[data-test="resend-invitation"]').click()
    await expect(() => mailTo(address).length === 2)
    const welcome = await mailLink(address, '/welcome/')
    const other = await freshContext(browserContext, page)
    const theirs = await other.newPage()
    await theirs.goto(welcome)
    await theirs.getByLabel('New password (at least 12 characters)').fill(PASSWORD)
    await theirs.getByLabel('Repeat the new password').fill(PASSWORD)
    await theirs.getByRole('button', { name: 'Set password and open the portal' }).click()
    await theirs.locator('[data-test="current-user"]').waitFor({ timeout: 30_000 })
    await theirs.assertPath('/publisher')

    // Revoking asks first, then ends the colleague's open session on its next request.
    await page.reload()
    await expectText(page, `[data-test="status-${address}"]`, 'active')
    await page.locator(`[data-test="revoke-${address}"]`).click()
    await expectText(page, '.p-confirmdialog', `${address} is signed out at once`, {
      contains: true,
    })
    await page.getByRole('button', { name: 'Revoke access', exact: true }).click()
    await expectText(page, `[data-test="status-${address}"]`, 'disabled')
    await colleague.refresh()
    assert.isNotNull(colleague.disabledAt)

    await theirs.goto('/publisher')
    await theirs.assertPath('/login')
    await signIn(theirs, address)
    await expectText(theirs, '[role="alert"]', 'do not match', { contains: true })

    const revoked = await AccessLogEntry.query()
      .where('action', 'user.access_changed')
      .where('subject_id', colleague.id)
      .firstOrFail()
    assert.equal(revoked.actor, `publisher:${admin.id}`)
    assert.deepEqual(revoked.details, { disabled: true })

    // Restored, it signs in again.
    await page.locator(`[data-test="restore-${address}"]`).click()
    await expectText(page, `[data-test="status-${address}"]`, 'active')
    await signIn(theirs, address)
    await theirs.locator('[data-test="current-user"]').waitFor()
    await theirs.assertPath('/publisher')
    await other.close()

    // Everything above is in the publisher's own access log, its people named by e-mail.
    await page.goto('/publisher/access-log')
    await page.locator('[data-test="access-log"]').waitFor({ timeout: 30_000 })
    await expectText(page, '[data-test="entry-actor"]', `${admin.email} (publisher)`)
    await expectText(page, '[data-test="entry-action"]', 'user access changed')
    await assertAccessible(page, assert)
  })

  test("a publisher user cannot reach another publisher's users nor the operator's pages", async ({
    browserContext,
    assert,
  }) => {
    const [publisher, other] = [await createPublisher(), await createPublisher()]
    const admin = await publisherAdmin(publisher.id)
    const stranger = await publisherAdmin(other.id)
    const page = await browserContext.newPage()
    await signIn(page, admin.email)
    await page.locator('[data-test="current-user"]').waitFor({ timeout: 30_000 })

    await page.goto('/publisher/users')
    await page.locator('[data-test="users"]').waitFor({ timeout: 30_000 })
    const listed = await page.locator('[data-test="user-email"]').allInnerTexts()
    assert.include(listed, admin.email)
    assert.notInclude(listed, stranger.email)

    for (const path of [
      '/operator/users',
      '/operator/access-log',
      '/compliance',
      '/compliance/exports',
    ]) {
      const response = await page.goto(path)
      assert.equal(response!.status(), 404, path)
    }
    await page.goto('/publisher')
    const refused = await send(page, 'patch', `/operator/users/${stranger.id}`, { disabled: true })
    assert.equal(refused.status(), 404)
    // On its own portal's routes another publisher's user is not found either: 404, as on a GET.
    for (const [method, url, data] of [
      ['patch', `/publisher/users/${stranger.id}`, { disabled: true }],
      ['post', `/publisher/users/${stranger.id}/invitation`, {}],
    ] as const) {
      const answer = await send(page, method, url, data)
      assert.equal(answer.status(), 404, url)
    }
    await stranger.refresh()
    assert.isNull(stranger.disabledAt)
    assert.lengthOf(mailTo(stranger.email), 0)

    // Its access log holds its own entries only.
    await page.goto('/publisher/access-log')
    await page.locator('[data-test="access-log"], [data-test="empty-state"]').first().waitFor()
    const body = await page.locator('main').innerText()
    assert.notInclude(body, stranger.email)
    assert.notInclude(body, other.id)
  })

  test('the operator invites a compliance officer with a scope and reads the access log', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const publisher = await createPublisher()
    const users = await app.container.make(UserService)
    await users.create(SYSTEM_OPERATOR, {
      email: `earlier-${publisher.slug}@leadgate.test`,
      role: 'compliance_officer',
      password: PASSWORD,
    })
    const page = await browserContext.newPage()
    await signIn(page, operator.email)
    await page.locator('[data-test="current-user"]').waitFor({ timeout: 30_000 })
    await page.goto('/operator/users')
    await page.locator('[data-test="users"]').waitFor({ timeout: 30_000 })
    await assertAccessible(page, assert)

    const address = `auditor-${publisher.slug}@leadgate.test`
    await page.getByLabel('E-mail').fill(address)
    await page.locator('[data-test="invite-role"]').click()
    await page.getByRole('option', { name: 'Compliance officer' }).click()
    await page.locator('[data-test="invite-scope-publishers"]').click()
    await page.getByRole('option', { name: publisher.name }).click()
    await page.keyboard.press('Escape')
    const from = page.getByLabel('Leads from (UTC)')
    await from.click()
    await from.fill('2026-01-01')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Escape')
    assert.equal(await from.inputValue(), '2026-01-01')
    await page.locator('[data-test="invite-submit"]').click()
    await expectText(page, '[data-test="user-email"]', address)

    const auditor = await User.findByOrFail('email', address)
    assert.equal(auditor.role, 'compliance_officer')
    assert.deepEqual(auditor.scope, {
      publishers: [publisher.slug],
      from: '2026-01-01T00:00:00.000Z',
    })
    await expectText(page, '[data-test="user-access"]', `Publishers ${publisher.slug}`, {
      contains: true,
    })

    // The access log: filtered by action, a page at a time.
    await page.goto('/operator/access-log?action=user.created&limit=1')
    await page.locator('[data-test="access-log"]').waitFor({ timeout: 30_000 })
    const first = await page.locator('[data-test="entry-action"]').allInnerTexts()
    assert.deepEqual(first, ['user created'])
    await expectText(page, '[data-test="entry-actor"]', `${operator.email} (operator)`)
    await page.locator('[data-test="next-page"]').click()
    await page.waitForURL(/cursor=/)
    assert.deepEqual(await page.locator('[data-test="entry-action"]').allInnerTexts(), [
      'user created',
    ])
    await assertAccessible(page, assert)
  })
})

async function expect(condition: () => boolean) {
  const deadline = Date.now() + 5000
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  if (!condition()) throw new Error('The condition did not hold within 5 s')
}
