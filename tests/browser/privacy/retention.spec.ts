import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createLabel } from '#tests/support/fixtures'
import { assertUsable, createOperator, signedIn, toast, typeNumber } from '#tests/browser/helpers'

test.group('Privacy / retention page', () => {
  test('the operator sets a label’s retention from the label’s page', async ({
    browserContext,
    assert,
  }) => {
    const label = await createLabel()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    await page.goto(`/operator/labels/${label.id}/edit`)
    await page.locator('[data-test="retention-link"]').click({ timeout: 90_000 })
    await page
      .locator('[data-test="page-title"]')
      .filter({ hasText: `Retention of ${label.name}` })
      .first()
      .waitFor({ state: 'visible', timeout: 90_000 })
    await assertUsable(page, assert)

    await typeNumber(page, '#retention-contact_days', '30')
    await typeNumber(page, '#retention-ip_days', '7')
    await page.locator('[data-test="save-retention"]').click()
    await toast(page, `Retention of ${label.name} saved`)

    const stored = await db.from('retention_policies').where('label_id', label.id).firstOrFail()
    assert.deepInclude(stored, { contact_days: 30, ip_days: 7, attributes_days: null })
    assert.equal(await page.locator('#retention-contact_days').inputValue(), '30')
  }).timeout(300_000)
})
