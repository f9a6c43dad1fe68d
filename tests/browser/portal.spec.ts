import { test } from '@japa/runner'
import AccessLogEntry from '#models/access_log_entry'
import Publisher from '#models/publisher'
import PublisherInvitation from '#models/publisher_invitation'
import User from '#models/user'
import { createBuyer, createPublisher } from '#tests/support/fixtures'
import {
  PASSWORD,
  acceptInvitation,
  createOperator,
  createPortalUser,
  expectText,
  invitationTokenFor,
  pageText,
  pageWidth,
  seriousAxeViolations,
  signIn,
} from '#tests/browser/helpers'

test.group('Portal / sign in', () => {
  test('an operator signs in and lands on its overview with the publishers count', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    await createPublisher()
    const [row] = await Publisher.query().count('* as total')

    const page = await browserContext.newPage()
    await signIn(page, operator.email)

    await expectText(page, '[data-test="page-title"]', 'Overview')
    await page.assertPath('/operator')
    await expectText(page, '[data-test="count-publishers"]', String(row.$extras.total))
    await expectText(page, '[data-test="current-user"]', operator.email)
    assert.deepEqual(await seriousAxeViolations(page), [])

    // A phone's width: nothing wider than the screen, still no serious violation.
    await page.setViewportSize({ width: 390, height: 844 })
    assert.isAtMost(await pageWidth(page), 390)
    assert.deepEqual(await seriousAxeViolations(page), [])
  })

  test('a wrong password shows the error and stays on /login', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signIn(page, operator.email, 'not-the-password')

    await expectText(page, '[role="alert"]', 'These credentials do not match an active account.')
    await page.assertPath('/login')
    assert.equal(await page.locator('[data-test="current-user"]').count(), 0)

    // Still signed out: the portal sends the visitor back to the login page.
    await page.goto('/portal')
    await page.assertPath('/login')
  })

  test('a compliance officer lands on its audit page and sees no operator figures', async ({
    browserContext,
    assert,
  }) => {
    const officer = await createPortalUser('compliance_officer')
    const page = await browserContext.newPage()
    await signIn(page, officer.email)

    await expectText(page, '[data-test="page-title"]', 'Audit')
    await page.assertPath('/compliance')
    assert.equal(await page.locator('[data-test="count-publishers"]').count(), 0)
  })

  test('a buyer user lands on its leads, sees no other buyer, and signs out', async ({
    browserContext,
    assert,
  }) => {
    const [buyer, other] = [await createBuyer(), await createBuyer()]
    const user = await createPortalUser('buyer_user', { buyerId: buyer.id })
    const page = await browserContext.newPage()
    await signIn(page, user.email)

    await expectText(page, '[data-test="page-title"]', 'Leads')
    await page.assertPath('/buyer')
    assert.notInclude(await pageText(page), other.name)

    await page.getByRole('button', { name: 'Log out' }).click()
    await expectText(page, 'main h1', 'Sign in to Leadgate')
    await page.goto('/portal')
    await page.assertPath('/login')
  })
})

test.group('Portal / invitation', () => {
  test('a publisher accepts its invitation and lands on its own portal', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const other = await createPublisher()
    const token = invitationTokenFor(publisher.contactEmail)

    const page = await browserContext.newPage()
    const shown = await page.goto(`/invitations/${token}`)
    assert.equal(shown!.status(), 200)
    await expectText(page, '[data-test="invited-publisher"]', publisher.name)
    await acceptInvitation(page)

    await expectText(page, '[data-test="portal-title"]', publisher.name)
    await page.assertPath('/publisher')
    await expectText(page, '[data-test="publisher-status"]', 'invited')
    await page.locator('[data-test="wizard"]').waitFor()
    await expectText(page, '[data-test="current-user"]', publisher.contactEmail)
    assert.notInclude(await pageText(page), other.name)
    await page.setViewportSize({ width: 390, height: 844 })
    assert.isAtMost(await pageWidth(page), 390)
    assert.deepEqual(await seriousAxeViolations(page), [])

    const user = await User.findByOrFail('email', publisher.contactEmail)
    assert.equal(user.role, 'publisher_user')
    assert.equal(user.publisherId, publisher.id)
    assert.sameMembers(user.permissions, ['read', 'submit'])
    assert.notEqual(user.password, PASSWORD)

    const invitation = await PublisherInvitation.findByOrFail('publisher_id', publisher.id)
    assert.isNotNull(invitation.acceptedAt)

    const logged = await AccessLogEntry.query()
      .where('action', 'user.created')
      .where('subject_id', user.id)
    assert.lengthOf(logged, 1)
    assert.equal(logged[0].actor, `publisher:${user.id}`)
    assert.equal(logged[0].publisherId, publisher.id)

    // The chosen password signs in from a fresh browser.
    const fresh = await browserContext
      .browser()!
      .newContext({ baseURL: new URL(page.url()).origin })
    const again = await fresh.newPage()
    await signIn(again, publisher.contactEmail)
    await expectText(again, '[data-test="portal-title"]', publisher.name)
    await fresh.close()
  })
})
