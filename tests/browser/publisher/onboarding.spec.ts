import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ApiKey from '#models/api_key'
import Publisher from '#models/publisher'
import QualityRulesService from '#services/catalogue/quality_rules_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { createKey, createLabel, createPublisher, operatorKey } from '#tests/support/fixtures'
import {
  acceptInvitation,
  expectText,
  invitationTokenFor,
  pageWidth,
  seriousAxeViolations,
} from '#tests/browser/helpers'

test.group('Publisher / onboarding', () => {
  test('publisher completes the wizard and delivers in sandbox', async ({
    browserContext,
    assert,
  }) => {
    const label = await createLabel()
    label.branding = { primary_color: '#7c2d12' }
    await label.save()
    const publisher = await createPublisher({ label: label.slug })
    const rules = await app.container.make(QualityRulesService)
    await rules.replace(SYSTEM_OPERATOR, publisher, {
      required_fields: ['contact.phone'],
      target_audience: [
        { field: 'attributes.age', op: 'between', value: [18, 99], action: 'flag' },
      ],
    })

    // Accepting the invitation signs the publisher in on its own home: the wizard, in its label's brand.
    const page = await browserContext.newPage()
    await page.goto(`/invitations/${invitationTokenFor(publisher.contactEmail)}`)
    await acceptInvitation(page)
    // The first visit may compile the page's modules: allow it more than a click's wait.
    await page.locator('[data-test="wizard"]').waitFor({ timeout: 30_000 })
    await page.reload()
    await expectText(page, '[data-test="page-title"]', 'Get started')
    await page.assertPath('/publisher')
    await expectText(page, '[data-test="brand"]', label.name)
    await page.locator('[data-test="choose-form"]').waitFor()
    assert.deepEqual(await seriousAxeViolations(page), [])
    await page.setViewportSize({ width: 390, height: 844 })
    assert.isAtMost(await pageWidth(page), 390)
    await page.setViewportSize({ width: 1280, height: 900 })

    // 1. The API as its delivery method.
    await page.locator('[data-test="choose-api"]').click()
    // The wizard moves on to the rules; the step before stays open to a click.
    await page.locator('[data-test="confirm-rules"]').waitFor()
    await publisher.refresh()
    assert.deepEqual(publisher.deliveryMethods, ['api'])
    await page.getByRole('button', { name: 'Choose how you deliver' }).click()
    await expectText(page, '[data-test="method-api"]', 'Chosen', { contains: true })
    await page.getByRole('button', { name: 'See your quality rules' }).click()

    // 2. Its rules in words, confirmed at the version it read.
    await expectText(
      page,
      '[data-test="rules"]',
      'We reject a lead without a valid phone number.',
      {
        contains: true,
      }
    )
    await expectText(
      page,
      '[data-test="rules"]',
      'We flag a lead whose age is missing or is not between 18 and 99.',
      { contains: true }
    )
    await page.getByRole('button', { name: 'These rules are clear — confirm' }).click()
    await page.locator('[data-test="create-sandbox-key"]').waitFor()
    await publisher.refresh()
    assert.equal(publisher.rulesConfirmedVersion, 1)
    await page.getByRole('button', { name: 'See your quality rules' }).click()
    await expectText(page, '[data-test="rules-confirmed"]', 'You confirmed these rules', {
      contains: true,
    })
    await page.getByRole('button', { name: 'Test in the sandbox' }).click()

    // 3. A sandbox key, shown once, in a curl that delivers with it.
    await page.locator('[data-test="create-sandbox-key"]').click()
    const secret = await page.locator('[data-test="one-time-secret-value"]').inputValue()
    assert.match(secret, /^lg_test_/)
    await expectText(page, '[data-test="curl"]', `Authorization: Bearer ${secret}`, {
      contains: true,
    })
    const key = await ApiKey.query().where('publisher_id', publisher.id).firstOrFail()
    assert.equal(key.environment, 'sandbox')
    assert.sameMembers(key.permissions, ['read', 'submit'])

    const curlBody = await page.locator('[data-test="curl"]').innerText()
    const sample = JSON.parse(
      curlBody.slice(curlBody.indexOf("-d '") + 4, curlBody.lastIndexOf("'"))
    )
    const byCurl = await page.request.post('/v1/leads', {
      data: sample,
      headers: { Authorization: `Bearer ${secret}` },
    })
    assert.equal(byCurl.status(), 201)
    assert.equal((await byCurl.json()).environment, 'sandbox')

    // The portal's own test lead goes through the same pipeline, in the sandbox.
    await page.locator('[data-test="send-test-lead"]').click()
    await expectText(page, '[data-test="test-lead-answer"]', 'accepted', { contains: true })
    const leadId = (await page.locator('[data-test="test-lead-answer"] code').innerText()).trim()
    const fact = await db.from('lead_facts').where('lead_id', leadId).firstOrFail()
    assert.equal(fact.publisher_id, publisher.id)
    assert.equal(fact.environment, 'sandbox')
    assert.equal(fact.status, 'accepted')
    const trail = await db.from('audit.entries').where('lead_id', leadId).orderBy('lead_seq')
    assert.deepEqual(
      trail.map((entry) => entry.event),
      ['lead.received', 'consent.captured', 'lead.validated', 'lead.accepted']
    )
    const [sandboxLeads] = await db
      .from('lead_facts')
      .where('publisher_id', publisher.id)
      .where('environment', 'sandbox')
      .count('* as total')
    assert.equal(Number(sandboxLeads.total), 2)

    // 4. The go-live request; then the operator's turn.
    await page.getByRole('button', { name: /^4 Go live$/ }).click()
    await page.locator('[data-test="request-go-live"]').click()
    await expectText(
      page,
      '[data-test="awaiting-approval"]',
      "Waiting for the operator's approval",
      {
        contains: true,
      }
    )
    await publisher.refresh()
    assert.isNotNull(publisher.goLiveRequestedAt)
    assert.deepEqual(await seriousAxeViolations(page), [])

    const approved = await page.request.patch(`/v1/publishers/${publisher.id}`, {
      data: { status: 'live' },
      headers: { Authorization: `Bearer ${await operatorKey()}` },
    })
    assert.equal(approved.status(), 200)

    // 5. Live: the home is the monitor, with today's live counts (sandbox tests left out).
    const { secret: liveKey } = await createKey({ publisherId: publisher.id })
    const delivered = await page.request.post('/v1/leads', {
      data: { ...sample, contact: { ...sample.contact, email: 'live.lead@example.com' } },
      headers: { Authorization: `Bearer ${liveKey}` },
    })
    assert.equal(delivered.status(), 201)
    await page.reload()
    await page.locator('[data-test="monitor"]').waitFor()
    await expectText(page, '[data-test="page-title"]', publisher.name)
    await expectText(page, '[data-test="leads-today"]', '1')
    await expectText(page, '[data-test="accepted-today"]', '1')
    assert.equal(await page.locator('[data-test="wizard"]').count(), 0)
    for (const href of [
      '/publisher/leads',
      '/publisher/keys',
      '/publisher/webhooks',
      '/publisher/users',
    ]) {
      assert.equal(await page.locator(`main a[href="${href}"]`).count(), 1, href)
    }
    assert.deepEqual(await seriousAxeViolations(page), [])
    await page.setViewportSize({ width: 390, height: 844 })
    assert.isAtMost(await pageWidth(page), 390)
    const live = await Publisher.findOrFail(publisher.id)
    assert.equal(live.status, 'live')
  })
})
