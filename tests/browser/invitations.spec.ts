import { DateTime } from 'luxon'
import { test } from '@japa/runner'
import PublisherInvitation from '#models/publisher_invitation'
import User from '#models/user'
import { createPublisher } from '#tests/support/fixtures'
import {
  PASSWORD,
  acceptInvitation,
  createPortalUser,
  expectText,
  invitationTokenFor,
} from '#tests/browser/helpers'

test.group('Invitation / links that cannot be used', () => {
  test('an unknown or malformed token answers 404 with a clear page', async ({
    browserContext,
    assert,
  }) => {
    const page = await browserContext.newPage()
    for (const token of [
      `inv_${'A'.repeat(43)}`,
      'not-a-token',
      `inv_${'%27'.repeat(20)}`,
      'x'.repeat(2000),
    ]) {
      const response = await page.goto(`/invitations/${token}`)
      assert.equal(response!.status(), 404, token)
      await expectText(page, '[data-test="invitation-problem"]', 'Invitation not found')
    }
  })

  test('an expired invitation answers 410 and cannot be accepted', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const token = invitationTokenFor(publisher.contactEmail)
    const page = await browserContext.newPage()
    await page.goto(`/invitations/${token}`)
    await expectText(page, '[data-test="invited-publisher"]', publisher.name)

    // It expires while the form is open: the submission is refused too.
    await PublisherInvitation.query()
      .where('publisher_id', publisher.id)
      .update({ expires_at: DateTime.utc().minus({ minutes: 1 }).toSQL() })
    await acceptInvitation(page)
    await expectText(page, '[data-test="invitation-problem"]', 'Invitation expired')
    assert.isNull(await User.findBy('email', publisher.contactEmail))

    const response = await page.goto(`/invitations/${token}`)
    assert.equal(response!.status(), 410)
    await expectText(page, '[data-test="invitation-problem"]', 'Invitation expired')
  })

  test('a used invitation answers 410 and creates no second user', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const token = invitationTokenFor(publisher.contactEmail)
    const page = await browserContext.newPage()
    await page.goto(`/invitations/${token}`)
    await acceptInvitation(page)
    await expectText(page, '[data-test="portal-title"]', publisher.name)

    const again = await page.goto(`/invitations/${token}`)
    assert.equal(again!.status(), 410)
    await expectText(page, '[data-test="invitation-problem"]', 'Invitation already used')
    assert.lengthOf(await User.query().where('email', publisher.contactEmail), 1)
  })

  test('mismatched passwords are refused on the form and nothing is created', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const token = invitationTokenFor(publisher.contactEmail)
    const page = await browserContext.newPage()
    await page.goto(`/invitations/${token}`)
    await acceptInvitation(page, PASSWORD, `${PASSWORD}-typo`)

    await expectText(page, '[role="alert"]', 'The two passwords do not match.')
    await page.assertPath(`/invitations/${token}`)
    assert.isNull(await User.findBy('email', publisher.contactEmail))
    const invitation = await PublisherInvitation.findByOrFail('publisher_id', publisher.id)
    assert.isNull(invitation.acceptedAt)
  })

  test('an address that already has an account answers 409 and the invitation stays open', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const token = invitationTokenFor(publisher.contactEmail)
    const existing = await createPortalUser('compliance_officer')
    existing.email = publisher.contactEmail
    await existing.save()

    const page = await browserContext.newPage()
    await page.goto(`/invitations/${token}`)
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      acceptInvitation(page),
    ])
    assert.equal(answer.status(), 409)
    await expectText(page, '[data-test="invitation-problem"]', 'Account already exists')

    const users = await User.query().where('email', publisher.contactEmail)
    assert.lengthOf(users, 1)
    assert.equal(users[0].role, 'compliance_officer')
    const invitation = await PublisherInvitation.findByOrFail('publisher_id', publisher.id)
    assert.isNull(invitation.acceptedAt)
  })
})
