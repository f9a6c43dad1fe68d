import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'
import type { Page } from 'playwright'
import UserSession from '#models/user_session'
import { RESET_THROTTLES, throttleKeys } from '#services/access/password_service'
import {
  createOperator,
  expectText,
  PASSWORD,
  pageWidth,
  seriousAxeViolations,
  signIn,
} from '#tests/browser/helpers'
import { linkIn } from '#tests/support/mail_parts'
import { mailTo } from '#tests/support/mailbox'

const NEW_PASSWORD = 'a-fresh-password-for-me'

/** Readable by axe-core and no wider than a phone, at the phone's width too. */
async function assertAccessibleOnAPhone(page: Page, assert: any) {
  assert.deepEqual(await seriousAxeViolations(page), [], page.url())
  await page.setViewportSize({ width: 390, height: 844 })
  assert.isAtMost(await pageWidth(page), 390, page.url())
  assert.deepEqual(await seriousAxeViolations(page), [], page.url())
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function resetMailTo(address: string) {
  const deadline = Date.now() + 5000
  while (mailTo(address).length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const link = mailTo(address)[0] && linkIn(mailTo(address)[0], '/reset-password/')
  if (!link) throw new Error(`No reset link reached ${address}`)
  return new URL(link.url).pathname
}

test.group('Portal / accounts', (group) => {
  group.each.setup(async () => {
    const counted = limiter.use('redis', RESET_THROTTLES.ip)
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      await counted.delete(throttleKeys.resetByIp(ip))
    }
  })

  test('a user who forgot its password resets it through the pages and signs in', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await expectText(page, 'main h1', 'Reset your password')
    await page.assertPath('/forgot-password')
    await assertAccessibleOnAPhone(page, assert)

    await page.getByLabel('E-mail').fill(operator.email)
    await page.getByRole('button', { name: 'Send the link' }).click()
    await expectText(page, '[data-test="reset-sent"]', 'a link to choose a new password', {
      contains: true,
    })
    await assertAccessibleOnAPhone(page, assert)

    await page.goto(await resetMailTo(operator.email))
    await expectText(page, 'main h1', 'Choose a new password')
    await expectText(page, '[data-test="account-email"]', operator.email)
    await assertAccessibleOnAPhone(page, assert)
    await page.getByLabel('New password (at least 12 characters)').fill(NEW_PASSWORD)
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()

    await expectText(page, '[data-test="login-status"]', 'Your password has been changed', {
      contains: true,
    })
    await page.assertPath('/login')
    await signIn(page, operator.email, PASSWORD)
    await expectText(page, '[role="alert"]', 'do not match', { contains: true })
    await signIn(page, operator.email, NEW_PASSWORD)
    await page.waitForURL('**/operator')
    await expectText(page, '[data-test="current-user"]', operator.email)

    // The link is spent: opening it again explains why and offers a new one.
    await page.goto(await resetMailTo(operator.email))
    await expectText(page, 'main h1', 'Link already used')
    await assertAccessibleOnAPhone(page, assert)
    assert.equal(await page.getByRole('link', { name: 'Ask for a new link' }).count(), 1)
  })

  test('signing out everywhere else sends the other browser to the sign-in page', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const here = await browserContext.newPage()
    await signIn(here, operator.email)
    await here.waitForURL('**/operator')

    const elsewhere = await browserContext
      .browser()!
      .newContext({ baseURL: new URL(here.url()).origin })
    const there = await elsewhere.newPage()
    await signIn(there, operator.email)
    await there.waitForURL('**/operator')

    await here.getByRole('link', { name: operator.email }).click()
    await expectText(here, 'main h1', 'Your account')
    assert.equal(await here.locator('[data-test="current-session"]').count(), 1)
    assert.equal(await here.locator('[data-test="sign-out-session"]').count(), 1)
    await assertAccessibleOnAPhone(here, assert)

    await here.getByRole('button', { name: 'Sign out everywhere else' }).click()
    await expectText(here, '.p-toast', 'Your other session is signed out.', { contains: true })
    assert.equal(await here.locator('[data-test="sign-out-session"]').count(), 0)
    assert.lengthOf(
      await UserSession.query().where('user_id', operator.id).whereNull('revoked_at'),
      1
    )

    await there.goto('/operator')
    await there.waitForURL('**/login')
    await expectText(there, 'main h1', 'Sign in to Leadgate')
    await elsewhere.close()

    // This browser is still signed in.
    await here.goto('/account')
    await expectText(here, 'main h1', 'Your account')
  })
})
