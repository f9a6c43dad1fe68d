import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Page } from 'playwright'
import ApiKey from '#models/api_key'
import Form from '#models/form'
import FormConsentVersion from '#models/form_consent_version'
import type Publisher from '#models/publisher'
import QualityRulesService from '#services/catalogue/quality_rules_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { createPublisher, unique } from '#tests/support/fixtures'
import { CONSENT, createForm } from '#tests/support/forms'
import {
  assertUsable,
  createOperator,
  createPortalUser,
  expectText,
  pageText,
  signedIn,
  toast,
} from '#tests/browser/helpers'

/** A user of the publisher who may deliver (`submit`) and read, or only read. */
async function publisherUser(publisher: Publisher, permissions: ('read' | 'submit')[]) {
  const user = await createPortalUser('publisher_user', { publisherId: publisher.id })
  user.permissions = permissions
  await user.save()
  return user
}

/** Picks an option of the PrimeVue Select `select` (a locator's selector or the element). */
async function choose(page: Page, select: ReturnType<Page['locator']>, option: string) {
  await select.click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

test.group('Forms / the portal', () => {
  test('a publisher creates a form, shares it, and a new consent wording is version 2', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    publisher.deliveryMethods = ['form']
    await publisher.save()
    // Its rules require a postal code: a form without one would have every lead rejected.
    const rules = await app.container.make(QualityRulesService)
    await rules.replace(SYSTEM_OPERATOR, publisher, { required_fields: ['contact.postal_code'] })
    const user = await publisherUser(publisher, ['read', 'submit'])
    const page = await browserContext.newPage()
    await signedIn(page, user.email)

    // No form yet: the list says what to do next.
    await page.goto('/publisher/forms')
    await expectText(page, '[data-test="page-title"]', 'Forms')
    await expectText(page, '[data-test="empty-state"] h2', 'No forms yet')
    await assertUsable(page, assert)
    await page.getByRole('link', { name: 'Create your first form' }).click()
    await expectText(page, '[data-test="page-title"]', 'New form')
    await page.assertPath('/publisher/forms/new')

    // The slug follows the title; the starter fields are there to change.
    const title = `Solar savings ${unique('x').slice(2)}`
    await page.getByLabel('Title').fill(title)
    const slug = await page.getByLabel('Page address').inputValue()
    assert.equal(slug, title.toLowerCase().replaceAll(' ', '-'))
    const rows = page.locator('[data-test="field-row"]')
    assert.equal(await rows.count(), 3)
    await rows.nth(2).getByRole('switch', { name: 'Required' }).click()

    // An attribute: a choice with its options, its name following its label.
    await page.locator('[data-test="add-field"]').click()
    const roof = rows.nth(3)
    await choose(page, roof.locator('[data-test="field-source"]'), 'Other (an attribute)')
    await roof.getByLabel('Label').fill('Roof type')
    assert.equal(await roof.getByLabel('Attribute name').inputValue(), 'roof_type')
    await choose(page, roof.locator('[data-test="field-type"]'), 'Choice from a list')
    await roof.getByRole('textbox', { name: 'Options' }).fill('flat')
    await roof.getByRole('textbox', { name: 'Options' }).press('Enter')
    await roof.getByRole('textbox', { name: 'Options' }).fill('pitched')
    await roof.getByRole('button', { name: 'Add option' }).click()
    // Moved up above the phone, the roof is asked third.
    await roof.getByRole('button', { name: 'Move up: Roof type' }).click()
    await expectText(page, '[data-test="field-row"]:nth-of-type(3) strong', '3. Roof type')

    // The origin of a site to embed it on, tidied to scheme and host.
    await page.getByLabel('Sites that may embed the form').fill('https://site.example/')
    await page.getByRole('button', { name: 'Add origin' }).click()
    await expectText(page, '[data-test="list-entry"] code', 'https://site.example')

    // A wording too short is refused next to it, and nothing is stored.
    await page.getByLabel('Consent wording').fill('I agree.')
    await assertUsable(page, assert)
    await page.getByRole('button', { name: 'Create form' }).click()
    await expectText(page, '#form-consent-error', '20', { contains: true })
    assert.isNull(await Form.findBy('slug', slug))

    await page.getByLabel('Consent wording').fill(CONSENT)
    await page.getByRole('button', { name: 'Create form' }).click()
    await toast(page, `Form "${title}" created`)
    const form = await Form.findByOrFail('slug', slug)
    await page.assertPath(`/publisher/forms/${form.id}`)
    assert.equal(form.publisherId, publisher.id)
    assert.deepEqual(form.fields, [
      { name: 'name', label: 'Your name', required: true },
      { name: 'email', label: 'E-mail address', required: true },
      {
        name: 'roof_type',
        label: 'Roof type',
        required: false,
        type: 'select',
        options: ['flat', 'pitched'],
      },
      { name: 'phone', label: 'Phone number', required: true },
    ])
    assert.deepEqual(form.embedOrigins, ['https://site.example'])
    assert.isTrue(form.active)

    // Its page: the address and snippet to copy, the preview, the rules it would fall foul of.
    await expectText(page, '[data-test="page-title"]', title)
    await expectText(page, '[data-test="form-url"]', `/f/${slug}`, { contains: true })
    await expectText(page, '[data-test="embed-snippet"]', `leadgate-form-${slug}`, {
      contains: true,
    })
    const url = await page.locator('[data-test="form-url"]').innerText()
    assert.equal(await page.locator('[data-test="open-page"]').getAttribute('href'), url.trim())
    await expectText(page, '[data-test="missing-fields"]', 'postal code', { contains: true })
    await page.frameLocator('[data-test="preview"]').getByRole('heading', { name: title }).waitFor()
    await page.frameLocator('[data-test="preview"]').getByLabel('Roof type').waitFor()
    await expectText(page, '[data-test="consent-version"] strong', 'Version 1')
    await expectText(page, '[data-test="funnel-views"] strong', '0')
    await assertUsable(page, assert)

    // A new wording and the missing postal code: version 2, and the warning goes.
    await page.locator('[data-test="edit-form"]').click()
    await expectText(page, '[data-test="page-title"]', `Edit ${title}`)
    await expectText(page, '[data-test="consent-version-note"]', 'This is version 1', {
      contains: true,
    })
    await page.locator('[data-test="add-field"]').click()
    await choose(page, rows.nth(4).locator('[data-test="field-source"]'), 'Postal code')
    assert.equal(await rows.nth(4).getByLabel('Label').inputValue(), 'Postal code')
    const wording = `${CONSENT} I may withdraw it at any time.`
    await page.getByLabel('Consent wording').fill(wording)
    await expectText(page, '[data-test="consent-version-note"]', 'version 2', { contains: true })
    await assertUsable(page, assert)
    await page.getByRole('button', { name: 'Save form' }).click()
    await toast(page, 'its consent wording is version 2 now')
    await page.assertPath(`/publisher/forms/${form.id}`)

    const versions = page.locator('[data-test="consent-version"]')
    await expectText(page, '[data-test="consent-version"] strong', 'Version 2')
    assert.equal(await versions.count(), 2)
    assert.include(await versions.nth(0).innerText(), wording)
    assert.include(await versions.nth(0).innerText(), 'current')
    assert.include(await versions.nth(1).innerText(), 'Version 1')
    assert.equal(await page.locator('[data-test="missing-fields"]').count(), 0)
    const stored = await FormConsentVersion.query().where('form_id', form.id).orderBy('version')
    assert.deepEqual(
      stored.map((version) => [version.version, version.text]),
      [
        [1, CONSENT],
        [2, wording],
      ]
    )
    await form.refresh()
    assert.equal(form.consentVersionId, stored[1].id)
    // The portal's preview was served twice and counted nowhere; a consumer's visit counts.
    await page.reload()
    await page.locator('[data-test="funnel"]').waitFor()
    await expectText(page, '[data-test="funnel-views"] strong', '0')
    const consumer = await page.context().newPage()
    await consumer.goto(url.trim())
    await consumer.close()
    await page.reload()
    await expectText(page, '[data-test="funnel-views"] strong', '1')
  })

  test('the operator lists every publisher’s forms, filters by publisher and makes one for a publisher', async ({
    browserContext,
    assert,
  }) => {
    const [first, second] = [await createPublisher(), await createPublisher()]
    const firstForm = await createForm(first, { title: unique('First publisher’s form') })
    const secondForm = await createForm(second, { title: unique('Second publisher’s form') })
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    await page.goto('/operator/forms')
    await page.locator('[data-test="forms"]').waitFor()
    await assertUsable(page, assert)
    await choose(page, page.locator('[data-test="filter-publisher"]'), first.name)
    await page.waitForURL(`**/operator/forms?publisher_id=${first.id}`)
    const listed = page.locator('[data-test="forms"] tbody tr')
    await expectText(page, '[data-test="form-title"]', firstForm.title)
    assert.equal(await listed.count(), 1)
    await expectText(page, '[data-test="form-publisher"]', first.name)
    await expectText(page, '[data-test="form-status"]', 'active')
    await expectText(page, '[data-test="form-consent-version"]', 'Version 1')
    assert.notInclude(await pageText(page), secondForm.title)

    // A form started from the filtered list is for that publisher.
    await page.locator('[data-test="new-form"]').click()
    await expectText(page, '[data-test="page-title"]', 'New form')
    await expectText(page, '[data-test="form-publisher"]', first.name, { contains: true })
    await assertUsable(page, assert)
    await page.getByLabel('Title').fill('Heat pumps')
    await page.getByLabel('Page address').fill(unique('heat-pumps'))
    await page.getByLabel('Consent wording').fill(CONSENT)
    await page.getByRole('button', { name: 'Create form' }).click()
    await toast(page, 'Form "Heat pumps" created')
    const made = await Form.query()
      .where('publisher_id', first.id)
      .where('title', 'Heat pumps')
      .firstOrFail()
    await page.assertPath(`/operator/forms/${made.id}`)
    await expectText(page, '[data-test="page-title"]', 'Heat pumps')
    await assertUsable(page, assert)
  })

  test('another publisher’s form is not found; a reading user gets no buttons to change forms', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const own = await createForm(publisher, { title: unique('Our form') })
    const other = await createForm(await createPublisher(), { title: unique('Their form') })
    const reader = await publisherUser(publisher, ['read'])
    const page = await browserContext.newPage()
    await signedIn(page, reader.email)

    for (const path of [`/publisher/forms/${other.id}`, `/publisher/forms/${other.id}/edit`]) {
      const response = await page.goto(path)
      assert.equal(response!.status(), 404, path)
      await expectText(page, '[data-test="page-title"]', 'Page not found')
    }
    // A change to it, sent as the page's own form would be (with the session's CSRF token).
    const xsrf = (await browserContext.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
    const refused = await page.request.patch(`/publisher/forms/${other.id}`, {
      data: { title: 'Taken over' },
      headers: { 'x-xsrf-token': decodeURIComponent(xsrf!.value) },
    })
    assert.equal(refused.status(), 404)
    await other.refresh()
    assert.notEqual(other.title, 'Taken over')

    await page.goto('/publisher/forms')
    await expectText(page, '[data-test="form-title"]', own.title)
    assert.notInclude(await pageText(page), other.title)
    assert.equal(await page.locator('[data-test="new-form"]').count(), 0)
    await page.locator('[data-test="form-title"]').click()
    await expectText(page, '[data-test="page-title"]', own.title)
    assert.equal(await page.locator('[data-test="edit-form"]').count(), 0)
  })

  test('choosing the hosted form on the home page sets up a first form; the API a sandbox key', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const user = await publisherUser(publisher, ['read', 'submit'])
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/publisher')
    await page.locator('[data-test="wizard"]').waitFor()

    await page.locator('[data-test="choose-form"]').click()
    await expectText(
      page,
      '[data-test="starter-form"]',
      'Your first form is ready to edit and publish',
      {
        contains: true,
      }
    )
    const starter = await Form.findByOrFail('publisher_id', publisher.id)
    assert.isFalse(starter.active)
    await assertUsable(page, assert)

    // The API too: without a sandbox key, one is made and shown once, in view.
    await page.getByRole('button', { name: 'Choose how you deliver' }).click()
    await page.locator('[data-test="choose-api"]').click()
    await page.locator('[data-test="chosen-method"] [data-test="sandbox-key"]').waitFor()
    const secret = await page
      .locator('[data-test="chosen-method"] [data-test="one-time-secret-value"]')
      .inputValue()
    assert.match(secret, /^lg_test_/)
    const keys = await ApiKey.query().where('publisher_id', publisher.id)
    assert.lengthOf(keys, 1)
    assert.equal(keys[0].environment, 'sandbox')
    assert.equal(await page.locator('[data-test="sandbox-key"]').count(), 1)
    await assertUsable(page, assert)

    await page.getByRole('button', { name: 'Choose how you deliver' }).click()
    await page.locator('[data-test="next-form"]').click()
    await page.assertPath('/publisher/forms')
    await expectText(page, '[data-test="form-title"]', starter.title)
    await expectText(page, '[data-test="form-status"]', 'closed')
  })
})
