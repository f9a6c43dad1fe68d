import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import User from '#models/user'
import { createOperator, expectText, signIn } from '#tests/browser/helpers'

test.group('Portal / sessions and accounts', () => {
  test('five wrong passwords lock the address out, even for the right one', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    for (let attempt = 0; attempt < 5; attempt++) {
      await signIn(page, operator.email, `wrong-password-${attempt}`)
      await expectText(page, '[role="alert"]', 'do not match', { contains: true })
    }
    await signIn(page, operator.email)
    await expectText(page, '[role="alert"]', 'Too many failed sign-ins', { contains: true })
    await page.assertPath('/login')
    assert.equal(await page.locator('[data-test="current-user"]').count(), 0)
  })

  test('a user disabled while signed in is signed out on the next request', async ({
    browserContext,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signIn(page, operator.email)
    await expectText(page, '[data-test="page-title"]', 'Overview')

    await User.query().where('id', operator.id).update({ disabled_at: DateTime.utc().toSQL() })
    await page.goto('/portal')
    await page.assertPath('/login')
  })

  test('after signing out, the old session cookie signs nobody in', async ({ browserContext }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signIn(page, operator.email)
    await expectText(page, '[data-test="page-title"]', 'Overview')
    const signedIn = await browserContext.cookies()

    await page.getByRole('button', { name: 'Log out' }).click()
    await expectText(page, 'main h1', 'Sign in to Leadgate')

    // Replaying the cookies from before the sign-out, as a stolen cookie would be.
    await browserContext.clearCookies()
    await browserContext.addCookies(signedIn)
    await page.goto('/portal')
    await page.assertPath('/login')
  })
})
