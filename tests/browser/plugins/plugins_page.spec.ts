import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import WebhookEndpoint from '#models/webhook_endpoint'
import { createLabel } from '#tests/support/fixtures'
import { assertUsable, createOperator, signedIn, toast } from '#tests/browser/helpers'
import { VendorServer } from '#tests/support/plugins'

test.group('Plugins / the label’s plugins page', () => {
  test('the operator enables HubSpot from the generated form and tests the connection', async ({
    browserContext,
    assert,
    cleanup,
  }) => {
    const hubspot = await VendorServer.start((request) =>
      request.headers.authorization === 'Bearer pat-browser'
        ? { status: 200, body: { results: [] } }
        : { status: 401, body: { status: 'error' } }
    )
    const label = await createLabel()
    cleanup(async () => {
      await hubspot.close()
      await WebhookEndpoint.query().where('label_id', label.id).delete()
    })
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    await page.goto(`/operator/labels/${label.id}/edit`)
    await page.locator('[data-test="plugins-link"]').click({ timeout: 90_000 })
    await page
      .locator('[data-test="page-title"]')
      .filter({ hasText: `Plugins of ${label.name}` })
      .first()
      .waitFor({ state: 'visible', timeout: 90_000 })
    await assertUsable(page, assert)

    await page.locator('#crm-hubspot-access_token').fill('pat-browser')
    await page.locator('#crm-hubspot-api_base').fill(hubspot.base)
    await page.locator('[data-test="save-crm-hubspot"]').click()
    await toast(page, 'crm-hubspot enabled')
    const row = await db.from('plugin_installations').where('label_id', label.id).firstOrFail()
    assert.equal(row.settings.api_base, hubspot.base)
    assert.notInclude(row.secrets, 'pat-browser')

    await page.locator('[data-test="test-crm-hubspot"]').click()
    await toast(page, 'Connection works: HubSpot accepted the token.')
  }).timeout(300_000)
})
