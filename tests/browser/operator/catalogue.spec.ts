import { test } from '@japa/runner'
import Buyer from '#models/buyer'
import Label from '#models/label'
import RoutingRule from '#models/routing_rule'
import AccessLogEntry from '#models/access_log_entry'
import { createBuyer, createLabel, createPublisher, unique } from '#tests/support/fixtures'
import {
  assertUsable,
  confirmDialog,
  createOperator,
  createPortalUser,
  expectText,
  signedIn,
  toast,
  typeNumber,
} from '#tests/browser/helpers'

const ORIGIN = `http://${process.env.HOST ?? 'localhost'}:${process.env.PORT ?? 3334}`

test.group('Operator catalogue / buyers and routing rules', () => {
  test('the buyer and label lists show their rows, or what to do when they are empty', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    await page.goto('/operator/buyers')
    await expectText(page, '[data-test="page-title"]', 'Buyers')
    if (Number((await Buyer.query().count('* as total'))[0].$extras.total) === 0) {
      await expectText(page, '[data-test="empty-state"] h2', 'No buyers yet')
    } else {
      await page.locator('[data-test="buyers"]').waitFor()
    }
    await assertUsable(page, assert)

    await page.goto('/operator/labels')
    await expectText(page, '[data-test="page-title"]', 'Labels')
    if (Number((await Label.query().count('* as total'))[0].$extras.total) === 0) {
      await expectText(page, '[data-test="empty-state"] h2', 'No labels yet')
    } else {
      await page.locator('[data-test="labels"]').waitFor()
    }
    await assertUsable(page, assert)

    // Whatever the address bar says, no page fails.
    for (const path of [
      '/operator/buyers?cursor=junk',
      '/operator/buyers?limit=abc',
      '/operator/routing-rules?buyer_id=not-an-id',
      '/operator/routing-rules?cursor=%00',
      '/operator/routing-rules/new?buyer_id[]=x',
      '/operator/labels?limit=100000',
      '/operator/buyers/01a21218-8c96-78f4-8d5b-208fabe3b4e2',
    ]) {
      const response = await page.goto(path)
      assert.isBelow(response!.status(), 500, path)
    }
  })

  test('create a buyer, give it a capped rule, change the price, pause the buyer', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const label = await createLabel()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    const name = unique('Acme Insurance')

    // A refused field is shown next to it and nothing is stored.
    await page.goto('/operator/buyers/new')
    await assertUsable(page, assert)
    await page.getByLabel('Name').fill(name)
    await page.getByLabel('Contact e-mail').fill('not-an-address')
    await page.getByRole('button', { name: 'Add buyer' }).click()
    await expectText(page, '#buyer-email-error', 'email', { contains: true })
    assert.isNull(await Buyer.findBy('name', name))

    await page.getByLabel('Contact e-mail').fill('buying@acme.example')
    await page.getByRole('button', { name: 'Add buyer' }).click()
    await toast(page, `Buyer ${name} added`)
    await expectText(page, '[data-test="page-title"]', name)
    const buyer = await Buyer.findByOrFail('name', name)
    assert.equal(buyer.contactEmail, 'buying@acme.example')
    assert.equal(buyer.status, 'active')
    await page.assertPath(`/operator/buyers/${buyer.id}`)
    await expectText(page, '[data-test="empty-state"] h2', 'No routing rules yet')
    await assertUsable(page, assert)

    // A rule for the buyer's leads of one label, 50 a day.
    await page.locator('[data-test="new-rule"]').first().click()
    await expectText(page, '[data-test="page-title"]', 'New routing rule')
    await expectText(page, '[data-test="rule-buyer"]', name, { contains: true })
    await page.locator('[data-test="rule-labels"]').click()
    await page.getByRole('option', { name: label.name }).click()
    await page.keyboard.press('Escape')
    await typeNumber(page, '#rule-price', '25')
    await typeNumber(page, '#rule-payout', '10')
    await typeNumber(page, '#rule-daily-cap', '50')
    await assertUsable(page, assert)
    await page.getByRole('button', { name: 'Create rule' }).click()

    await toast(page, 'Routing rule created')
    await expectText(page, '[data-test="cap-daily"]', '0 / 50 today')
    await page.assertPath('/operator/routing-rules')
    const rule = await RoutingRule.findByOrFail('buyer_id', buyer.id)
    assert.equal(rule.priceCents, 2500)
    assert.equal(rule.payoutCents, 1000)
    assert.equal(rule.currency, 'EUR')
    assert.deepEqual(rule.caps, { daily: 50 })
    assert.deepEqual(rule.labelIds, [label.id])
    assert.isNull(rule.schedule)
    await expectText(page, '[data-test="rule-scope"]', `Labels: ${label.name}`)
    await expectText(page, '[data-test="rule-schedule"]', 'Always open')
    await assertUsable(page, assert)

    // The buyer list shows it with its figures.
    await page.goto('/operator/buyers')
    const listed = page.locator('[data-test="buyers"] tr', { hasText: name })
    await listed.waitFor()
    assert.equal(await listed.locator('[data-test="buyer-leads-today"]').innerText(), '0')
    assert.equal(await listed.locator('[data-test="buyer-rules"]').innerText(), '1')
    await assertUsable(page, assert)
    await listed.locator('[data-test="buyer-rules"]').click()
    await expectText(page, '[data-test="cap-daily"]', '0 / 50 today')
    await page.assertPath('/operator/routing-rules')

    // A new price; then a payout above it, refused next to the payout with the service's words.
    await page.locator('[data-test="edit-rule"]').click()
    await expectText(page, '[data-test="page-title"]', 'Edit routing rule')
    await typeNumber(page, '#rule-price', '30')
    await page.getByRole('button', { name: 'Save rule' }).click()
    await toast(page, 'Routing rule saved')
    await expectText(page, '[data-test="rule-price"]', '30.00', { contains: true })
    await rule.refresh()
    assert.equal(rule.priceCents, 3000)
    assert.deepEqual(rule.caps, { daily: 50 })

    await page.locator('[data-test="edit-rule"]').click()
    await typeNumber(page, '#rule-payout', '40')
    await page.getByRole('button', { name: 'Save rule' }).click()
    await expectText(page, '#payout-error', 'cannot exceed the price', { contains: true })
    await toast(page, 'invalid fields')
    await page.assertPath(`/operator/routing-rules/${rule.id}/edit`)
    await rule.refresh()
    assert.equal(rule.payoutCents, 1000)

    // Pausing asks first, then takes the buyer out of routing; resuming brings it back.
    await page.goto(`/operator/buyers/${buyer.id}`)
    await expectText(page, '[data-test="cap-daily"]', '0 / 50 today')
    await page.getByRole('button', { name: 'Pause buyer' }).click()
    await confirmDialog(page, 'Pause buyer')
    await toast(page, `${name} paused`)
    await expectText(page, '[data-test="buyer-status"]', 'paused')
    await buyer.refresh()
    assert.equal(buyer.status, 'paused')
    const logged = await AccessLogEntry.query()
      .where('action', 'buyer.updated')
      .where('subject_id', buyer.id)
    assert.lengthOf(logged, 1)
    assert.equal(logged[0].actor, `operator:${operator.id}`)

    await page.getByRole('button', { name: 'Resume buyer' }).click()
    await toast(page, `${name} resumed`)
    await expectText(page, '[data-test="buyer-status"]', 'active')
    await buyer.refresh()
    assert.equal(buyer.status, 'active')

    // Deleting asks first; keeping it changes nothing.
    await page.locator('[data-test="delete-rule"]').click()
    await confirmDialog(page, 'Keep it')
    assert.isNotNull(await RoutingRule.find(rule.id))
    await page.locator('[data-test="delete-rule"]').click()
    await confirmDialog(page, 'Delete rule')
    await toast(page, 'Routing rule deleted')
    await expectText(page, '[data-test="empty-state"] h2', 'No routing rules yet')
    assert.isNull(await RoutingRule.find(rule.id))
  })

  test('a rule with criteria and office hours reads back in words', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const buyer = await createBuyer()
    const publisher = await createPublisher()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    // A buyer's rule list without rules says what to do.
    await page.goto(`/operator/routing-rules?buyer_id=${buyer.id}`)
    await expectText(page, '[data-test="empty-state"] h2', 'This buyer has no routing rules')
    await assertUsable(page, assert)

    await page.goto(`/operator/routing-rules/new?buyer_id=${buyer.id}`)
    await page.locator('[data-test="rule-publishers"]').click()
    await page.getByRole('option', { name: publisher.name }).click()
    await page.keyboard.press('Escape')
    await page.locator('[data-test="add-criterion"]').click()
    await page.locator('#criterion-0-field').fill('attributes.age')
    await page.getByRole('combobox', { name: 'Condition' }).click()
    await page.getByRole('option', { name: 'is between' }).click()
    await typeNumber(page, '#criterion-0-min', '18')
    await typeNumber(page, '#criterion-0-max', '65')
    await page.locator('#schedule-limited').check()
    await typeNumber(page, '#rule-price', '12')
    await typeNumber(page, '#rule-payout', '8')
    await typeNumber(page, '#rule-monthly-cap', '1000')
    await assertUsable(page, assert)
    await page.getByRole('button', { name: 'Create rule' }).click()

    await toast(page, 'Routing rule created')
    await expectText(page, '[data-test="cap-monthly"]', '0 / 1000 this month')
    const rule = await RoutingRule.findByOrFail('buyer_id', buyer.id)
    assert.deepEqual(rule.publisherIds, [publisher.id])
    assert.deepEqual(rule.criteria, [{ field: 'attributes.age', op: 'between', value: [18, 65] }])
    assert.deepEqual(rule.schedule, {
      timezone: 'UTC',
      windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
    })
    await expectText(page, '[data-test="rule-scope"]', `Publishers: ${publisher.name}`)
    await expectText(page, '[data-test="routing-rules"] li', 'attributes.age between 18 and 65')
    await expectText(page, '[data-test="rule-schedule"]', 'Mon–Fri 09:00–17:00 (UTC)')
  })

  test('a sandbox rule is chosen on the form, tagged in the list and fixed once created', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const buyer = await createBuyer()
    const publisher = await createPublisher()
    const live = await RoutingRule.create({
      buyerId: buyer.id,
      labelIds: [],
      publisherIds: [publisher.id],
      criteria: [],
      priceCents: 1500,
      payoutCents: 1000,
      currency: 'EUR',
      caps: {},
      schedule: null,
      priority: 0,
      weight: 1,
      enabled: true,
      environment: 'live',
    })
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    await page.goto(`/operator/routing-rules/new?buyer_id=${buyer.id}`)
    await expectText(page, '[data-test="rule-environment"]', 'Live leads', { contains: true })
    await page.locator('[data-test="rule-environment"]').click()
    await page.getByRole('option', { name: /^Sandbox leads/ }).click()
    await page.locator('[data-test="rule-publishers"]').click()
    await page.getByRole('option', { name: publisher.name }).click()
    await page.keyboard.press('Escape')
    await typeNumber(page, '#rule-price', '25')
    await typeNumber(page, '#rule-payout', '10')
    await assertUsable(page, assert)
    await page.getByRole('button', { name: 'Create rule' }).click()

    await toast(page, 'Routing rule created')
    const rules = await RoutingRule.query().where('buyer_id', buyer.id).orderBy('id')
    assert.deepEqual(
      rules.map((rule) => rule.environment),
      ['live', 'sandbox']
    )
    const sandbox = rules[1]
    // Only the sandbox rule wears the tag; the filter shows one environment.
    await page.locator('[data-test="rule-sandbox"]').waitFor()
    assert.equal(await page.locator('[data-test="rule-sandbox"]').count(), 1)
    await page.goto(`/operator/routing-rules?buyer_id=${buyer.id}&environment=sandbox`)
    await expectText(page, '[data-test="rule-price"]', '25.00', { contains: true })
    assert.equal(await page.locator('[data-test="routing-rules"] tbody tr').count(), 1)
    await assertUsable(page, assert)
    await page.goto(`/operator/routing-rules?buyer_id=${buyer.id}&environment=live`)
    await expectText(page, '[data-test="rule-price"]', '15.00', { contains: true })
    assert.equal(await page.locator('[data-test="rule-sandbox"]').count(), 0)

    // Editing keeps the environment: the choice is shown, not offered.
    await page.goto(`/operator/routing-rules/${sandbox.id}/edit`)
    await expectText(page, '[data-test="rule-environment"]', 'Sandbox leads', { contains: true })
    assert.isTrue(
      await page
        .locator('[data-test="rule-environment"]')
        .evaluate((select) => select.classList.contains('p-disabled'))
    )
    await assertUsable(page, assert)
    await typeNumber(page, '#rule-price', '30')
    await page.getByRole('button', { name: 'Save rule' }).click()
    await toast(page, 'Routing rule saved')
    await sandbox.refresh()
    await live.refresh()
    assert.equal(sandbox.environment, 'sandbox')
    assert.equal(sandbox.priceCents, 3000)
    assert.equal(live.environment, 'live')
  })
})

test.group('Operator catalogue / labels', () => {
  test('create a label with a colour, see the preview, give it its own host', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)
    const name = unique('Sunny Energy')

    await page.goto('/operator/labels/new')
    await page.getByLabel('Name').fill(name)
    // The slug follows the name until it is typed by hand.
    assert.equal(
      await page.locator('#label-slug').inputValue(),
      name.toLowerCase().replaceAll(' ', '-')
    )
    // Gold is too pale for white text: the preview shows the darker colour the portal will use.
    await page.locator('#label-colour').fill('#ffd700')
    await expectText(page, '[data-test="preview-bar"]', name, { contains: true })
    await expectText(page, '[data-test="preview-adjusted"]', 'Adjusted for contrast', {
      contains: true,
    })
    const used = await page.locator('[data-test="preview-colour"] code').innerText()
    assert.notEqual(used, '#ffd700')
    // The bar wears exactly the colour it names.
    const background = await page
      .locator('[data-test="preview-bar"]')
      .evaluate((bar) => (globalThis as any).getComputedStyle(bar).backgroundColor as string)
    const rgb = (used.slice(1).match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16))
    assert.equal(background, `rgb(${rgb.join(', ')})`)
    // A colour dark enough already is used as chosen.
    await page.locator('#label-colour').fill('#1d4ed8')
    await expectText(page, '[data-test="preview-colour"] code', '#1d4ed8')
    assert.equal(await page.locator('[data-test="preview-adjusted"]').count(), 0)
    await page.locator('#label-colour').fill('#ffd700')
    await assertUsable(page, assert)

    await page.getByRole('button', { name: 'Create label' }).click()
    await toast(page, `Label ${name} created`)
    await page.assertPath('/operator/labels')
    const label = await Label.findByOrFail('name', name)
    assert.deepEqual(label.branding, { primary_color: '#ffd700' })
    assert.isNull(label.customHost)
    const row = page.locator('[data-test="labels"] tr', { hasText: name })
    await expectText(page, '[data-test="labels"] tr', name, { contains: true })
    assert.equal(await row.locator('[data-test="label-colour"] code').innerText(), '#ffd700')
    await assertUsable(page, assert)

    // Edit the branding: a refused colour is shown next to it; a host of its own is kept.
    await row.locator('[data-test="edit-label"]').click()
    await expectText(page, '[data-test="page-title"]', `Edit ${name}`)
    await page.locator('#label-colour').fill('gold')
    await page.getByRole('button', { name: 'Save label' }).click()
    await expectText(page, '#label-colour-error', 'format', { contains: true })
    await label.refresh()
    assert.equal(label.branding.primary_color, '#ffd700')

    const host = `leads.${label.slug}.example`
    await page.locator('#label-colour').fill('#0b5394')
    await page.locator('#label-host').fill(host.toUpperCase())
    await assertUsable(page, assert)
    await page.getByRole('button', { name: 'Save label' }).click()
    await toast(page, `Label ${name} saved`)
    await page.assertPath('/operator/labels')
    await label.refresh()
    assert.equal(label.customHost, host)
    assert.equal(label.branding.primary_color, '#0b5394')
    await expectText(page, '[data-test="labels"] tr', host, { contains: true })
  })
})

test.group('Operator catalogue / isolation', () => {
  test('a publisher or buyer user finds none of the catalogue pages', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const buyer = await createBuyer()
    const label = await createLabel()
    const publisherUser = await createPortalUser('publisher_user', { publisherId: publisher.id })
    const buyerUser = await createPortalUser('buyer_user', { buyerId: buyer.id })
    const paths = [
      '/operator/buyers',
      '/operator/buyers/new',
      `/operator/buyers/${buyer.id}`,
      '/operator/routing-rules',
      '/operator/routing-rules/new',
      '/operator/labels',
      '/operator/labels/new',
      `/operator/labels/${label.id}/edit`,
    ]
    for (const user of [publisherUser, buyerUser]) {
      const context = await browserContext.browser()!.newContext({ baseURL: ORIGIN })
      const page = await context.newPage()
      await signedIn(page, user.email)
      for (const path of paths) {
        const response = await page.goto(path)
        assert.equal(response!.status(), 404, `${user.role} on ${path}`)
        assert.notInclude(await page.locator('body').innerText(), buyer.contactEmail)
      }
      // A change sent by hand, with the session's CSRF token, is refused the same way.
      const xsrf = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
      const refused = await page.request.patch(`/operator/buyers/${buyer.id}`, {
        data: { status: 'paused' },
        headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf?.value ?? '') },
      })
      assert.equal(refused.status(), 404)
      await context.close()
    }
    await buyer.refresh()
    assert.equal(buyer.status, 'active')
  })
})
