import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import QualityRulesService from '#services/catalogue/quality_rules_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { livePublisher } from '#tests/support/fixtures'
import { assertUsable, createPortalUser, expectText, signedIn } from '#tests/browser/helpers'

test.group('Publisher / posting spec', () => {
  test('a publisher reads its posting spec, what changed and every version', async ({
    browserContext,
    assert,
  }) => {
    const { publisher } = await livePublisher({ required_fields: ['attributes.roof_type'] })
    const user = await createPortalUser('publisher_user', { publisherId: publisher.id })
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await page.goto('/publisher/posting-spec')
    await expectText(page, '[data-test="page-title"]', 'Posting spec')
    await expectText(page, '[data-test="current-version"] h2', 'Version 1')
    await expectText(page, '[data-test="rules"] li', 'We reject a lead without a roof type.', {
      contains: true,
    })

    const rules = await app.container.make(QualityRulesService)
    await rules.replace(SYSTEM_OPERATOR, publisher, { phone: { action: 'flag' } })
    await page.reload()
    await expectText(page, '[data-test="current-version"] h2', 'Version 2')
    await expectText(
      page,
      '[data-test="current-version"] li',
      'No longer: We reject a lead without a roof type.',
      { contains: true }
    )
    assert.equal(await page.locator('[data-test="versions"] tbody tr').count(), 2)
    await assertUsable(page, assert)
  })
})
