import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import Publisher from '#models/publisher'
import OnboardingService from '#services/catalogue/onboarding_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { createBuyer, createLabel, createPublisher, unique } from '#tests/support/fixtures'
import { mailTo } from '#tests/support/mailbox'
import {
  assertUsable,
  confirmDialog,
  createOperator,
  createPortalUser,
  expectText,
  signIn,
  toast,
  typeNumber,
} from '#tests/browser/helpers'

const ORIGIN = `http://${process.env.HOST ?? 'localhost'}:${process.env.PORT ?? 3334}`

/** A lead of a 17-year-old, written as the sample panel takes it. */
const MINOR = JSON.stringify({
  contact: {
    name: 'Sam Young',
    email: 'sam.young@example.nl',
    phone: '+31612345678',
    postal_code: '1012 AB',
    country: 'NL',
  },
  consent: {
    given: true,
    text: 'I agree to be contacted.',
    timestamp: new Date(Date.now() - 60_000).toISOString(),
    ip: '203.0.113.9',
  },
  attributes: { age: 17 },
})

test.group('Operator / publishers', () => {
  test('invite a publisher, find it, try a sample lead on its rules, save them, go live, pause', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const label = await createLabel()
    const taken = await createPublisher()
    const page = await browserContext.newPage()
    await signIn(page, operator.email)
    await page.locator('[data-test="current-user"]').waitFor()

    // The list, with its rows or what to do when there are none.
    await page.goto('/operator/publishers')
    await expectText(page, '[data-test="page-title"]', 'Publishers')
    await page.locator('[data-test="publishers"]').waitFor()
    await assertUsable(page, assert)

    // Invite: the slug follows the name; a taken slug is refused next to it, nothing stored.
    await page.locator('[data-test="invite-publisher"]').click()
    await expectText(page, '[data-test="page-title"]', 'Invite a publisher')
    await assertUsable(page, assert)
    const suffix = unique('x').slice(2)
    const name = `Acme Média ${suffix}`
    const email = `ops-${suffix}@acme.example`
    await page.getByLabel('Name').fill(name)
    assert.equal(await page.getByLabel('Slug').inputValue(), `acme-media-${suffix}`)
    await page.getByLabel('Slug').fill(taken.slug)
    await page.getByLabel('Contact e-mail').fill(email)
    await page.locator('[data-test="publisher-label"]').click()
    await page.getByRole('option', { name: label.name }).click()
    await page.getByRole('button', { name: 'Send the invitation' }).click()
    await expectText(page, '#slug-error', 'already exists', { contains: true })
    await toast(page, 'already exists')
    assert.isNull(await Publisher.findBy('contact_email', email))
    await assertUsable(page, assert)

    await page.getByLabel('Slug').fill(`acme-media-${suffix}`)
    await page.getByRole('button', { name: 'Send the invitation' }).click()
    await expectText(page, '[data-test="page-title"]', name)
    await toast(page, `Invitation sent to ${email}`)
    const publisher = await Publisher.findByOrFail('slug', `acme-media-${suffix}`)
    await page.assertPath(`/operator/publishers/${publisher.id}`)
    assert.equal(publisher.status, 'invited')
    assert.equal(publisher.labelId, label.id)
    assert.lengthOf(mailTo(email), 1)

    // Its page: the facts and the onboarding, at its first step.
    await expectText(page, '[data-test="delivery-methods"]', 'None chosen yet')
    await expectText(page, '[data-test="onboarding-choose_delivery_method"] .p-tag', 'Now')
    await expectText(page, '[data-test="onboarding-approved"] .p-tag', 'To do')
    await page.locator('[data-test="rules-not-confirmed"]').waitFor()
    await assertUsable(page, assert)

    // Resend the invitation: a second e-mail, after a confirmation.
    await page.locator('[data-test="resend-invitation"]').click()
    await confirmDialog(page, 'Send again')
    await toast(page, `Invitation sent again to ${email}`)
    assert.lengthOf(mailTo(email), 2)

    // The list finds it by part of its name, side by side with its figures.
    await page.goto(`/operator/publishers?search=${suffix}`)
    const row = page.locator('[data-test="publishers"] tbody tr', { hasText: name })
    await row.waitFor()
    assert.equal(await page.locator('[data-test="publishers"] tbody tr').count(), 1)
    assert.include(await row.innerText(), label.name)
    assert.include(await row.locator('[data-test="status"]').innerText(), 'invited')
    assert.equal(
      await row.locator('[data-test="publisher-step"]').innerText(),
      'Choosing a delivery method'
    )
    assert.equal(await row.locator('[data-test="publisher-leads-today"]').innerText(), '0')
    assert.equal(await row.locator('[data-test="publisher-acceptance"]').innerText(), '—')
    await assertUsable(page, assert)

    await page.goto(`/operator/publishers?search=${unique('nobody')}`)
    await expectText(page, '[data-test="empty-state"] h2', 'No publisher matches')

    // Open it from the list, then its quality rules.
    await page.goto(`/operator/publishers?search=${suffix}`)
    await page.locator('[data-test="publisher-link"]', { hasText: name }).click()
    await expectText(page, '[data-test="page-title"]', name)
    await page.locator('[data-test="quality-rules-link"]').click()
    await expectText(page, '[data-test="page-title"]', `Quality rules of ${name}`)
    await assertUsable(page, assert)

    // An audience of 18 to 75, unsaved, tried on a 17-year-old: rejected, with the reason.
    await page.getByRole('button', { name: 'Add a criterion' }).click()
    await page.locator('#criterion-0-field').fill('attributes.age')
    await page.locator('[data-test="criterion"] .p-select').nth(1).click()
    await page.getByRole('option', { name: 'is between' }).click()
    await typeNumber(page, '#criterion-0-min', '18')
    await typeNumber(page, '#criterion-0-max', '75')
    await page.locator('[data-test="sample-lead-json"]').fill(MINOR)
    await page.locator('[data-test="try-sample"]').click()
    await expectText(page, '[data-test="preview-outcome"]', 'This lead would be rejected.', {
      contains: true,
    })
    const reasons = await page.locator('[data-test="preview-reasons"]').innerText()
    assert.include(reasons, 'Outside the target audience')
    assert.include(reasons, 'attributes.age')
    assert.include(reasons, 'between 18 and 75')
    await publisher.refresh()
    assert.deepEqual(publisher.qualityRules, {})
    assert.equal(publisher.qualityRulesVersion, 0)
    await assertUsable(page, assert)

    // A value the API refuses shows next to its field; then the rules are saved.
    await typeNumber(page, '#criterion-0-min', '80')
    await page.getByRole('button', { name: 'Save the rules' }).click()
    await expectText(page, '#criterion-0-error', 'min <= max', { contains: true })
    await publisher.refresh()
    assert.equal(publisher.qualityRulesVersion, 0)

    await typeNumber(page, '#criterion-0-min', '18')
    await page.getByRole('button', { name: 'Save the rules' }).click()
    await toast(page, 'Quality rules saved as version 1')
    await publisher.refresh()
    assert.deepEqual(publisher.qualityRules as unknown, {
      target_audience: [
        { field: 'attributes.age', op: 'between', value: [18, 75], action: 'reject' },
      ],
    })
    assert.equal(publisher.qualityRulesVersion, 1)

    // Going live before the publisher confirmed its rules: refused with the reason, nothing changed.
    await page.goto(`/operator/publishers/${publisher.id}`)
    await page.locator('[data-test="go-live"]').click()
    await confirmDialog(page, 'Go live')
    await toast(page, 'has not confirmed its current quality rules')
    await publisher.refresh()
    assert.equal(publisher.status, 'invited')

    // Once it has, the operator sets it live, then pauses it.
    const onboarding = await app.container.make(OnboardingService)
    await onboarding.confirmRules(SYSTEM_OPERATOR, publisher)
    await page.reload()
    assert.equal(await page.locator('[data-test="rules-not-confirmed"]').count(), 0)
    await expectText(page, '[data-test="onboarding-confirm_quality_rules"] .p-tag', 'Done')
    await page.locator('[data-test="go-live"]').click()
    await confirmDialog(page, 'Go live')
    await toast(page, `${name} is live`)
    await publisher.refresh()
    assert.equal(publisher.status, 'live')
    await expectText(page, '[data-test="onboarding-approved"] .p-tag', 'Done')

    await page.locator('[data-test="pause"]').click()
    await confirmDialog(page, 'Pause')
    await toast(page, `${name} paused`)
    await publisher.refresh()
    assert.equal(publisher.status, 'paused')
    await expectText(page, '[data-test="status"]', 'paused')
    await assertUsable(page, assert)
  })

  test('an unknown publisher, or the operator pages under another role, answer 404', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signIn(page, operator.email)
    await page.locator('[data-test="current-user"]').waitFor()
    for (const path of [
      `/operator/publishers/${randomUUID()}`,
      `/operator/publishers/${randomUUID()}/quality-rules`,
      '/operator/publishers/not-a-publisher',
    ]) {
      const response = await page.goto(path)
      assert.equal(response!.status(), 404, path)
      await expectText(page, '[data-test="page-title"]', 'Page not found')
    }

    const publisher = await createPublisher()
    const other = await createPublisher()
    const publisherUser = await createPortalUser('publisher_user', { publisherId: publisher.id })
    const buyerUser = await createPortalUser('buyer_user', { buyerId: (await createBuyer()).id })
    for (const user of [publisherUser, buyerUser]) {
      const context = await browserContext.browser()!.newContext({ baseURL: ORIGIN })
      const own = await context.newPage()
      await signIn(own, user.email)
      await own.locator('[data-test="current-user"]').waitFor()
      for (const path of [
        '/operator/publishers',
        '/operator/publishers/new',
        `/operator/publishers/${publisher.id}`,
        `/operator/publishers/${other.id}/quality-rules`,
      ]) {
        const response = await own.goto(path)
        assert.equal(response!.status(), 404, `${user.role} on ${path}`)
        assert.notInclude(await own.locator('body').innerText(), other.contactEmail)
      }
      // A change or a preview sent by hand, with the session's CSRF token, is refused the same way.
      const xsrf = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
      const headers = { 'X-XSRF-TOKEN': decodeURIComponent(xsrf?.value ?? '') }
      const paused = await own.request.patch(`/operator/publishers/${other.id}`, {
        data: { status: 'paused' },
        headers,
      })
      assert.equal(paused.status(), 404)
      const previewed = await own.request.post(
        `/operator/publishers/${other.id}/quality-rules/preview`,
        { data: { lead: { contact: { email: 'a@example.nl' } } }, headers }
      )
      assert.equal(previewed.status(), 404)
      await context.close()
    }
    await other.refresh()
    assert.equal(other.status, 'invited')
  })
})
