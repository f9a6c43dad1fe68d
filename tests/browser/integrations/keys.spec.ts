import { test } from '@japa/runner'
import type { Page } from 'playwright'
import ApiKey from '#models/api_key'
import OauthClient from '#models/oauth_client'
import type { Permission } from '#auth/principal'
import {
  createBuyer,
  createKey,
  createPublisher,
  leadBody,
  livePublisher,
} from '#tests/support/fixtures'
import {
  createOperator,
  createPortalUser,
  expectText,
  pageText,
  seriousAxeViolations,
} from '#tests/browser/helpers'
import {
  assertAccessibleAtPhoneWidth,
  openAs,
  publisherUser,
} from '#tests/browser/integrations/helpers'

/** Fills the "Create API key" dialog; the owner is picked only when the form offers one. */
async function createKeyThroughDialog(
  page: Page,
  options: { name: string; owner?: string; permissions?: Permission[]; environment?: string }
) {
  await page.locator('[data-test="create-key"]').click()
  const form = page.locator('[data-test="key-form"]')
  await form.getByLabel('Name').fill(options.name)
  if (options.owner) {
    await form.locator('[data-test="owner"]').click()
    await page.getByRole('option', { name: options.owner, exact: true }).click()
  }
  for (const permission of ['read', 'submit'] as const) {
    if (!options.permissions) break
    const box = form.locator(`#key-permission-${permission}`)
    if ((await box.isChecked()) !== options.permissions.includes(permission)) await box.click()
  }
  if (options.environment) await form.locator(`#key-environment-${options.environment}`).check()
  await form.getByRole('button', { name: 'Create key' }).click()
}

test.group('Integrations / API keys', () => {
  test('the operator creates a key for a publisher, sees it once, copies it, uses it and revokes it', async ({
    browserContext,
    client,
    assert,
  }) => {
    const operator = await createOperator()
    const { publisher } = await livePublisher()
    await browserContext.grantPermissions(['clipboard-read', 'clipboard-write'])

    const page = await browserContext.newPage()
    await openAs(page, operator.email, '/operator/keys')
    await expectText(page, '[data-test="page-title"]', 'API keys')

    await createKeyThroughDialog(page, {
      name: 'Website form',
      owner: publisher.name,
      permissions: ['submit'],
      environment: 'live',
    })
    await expectText(page, '[data-test="one-time-secret"]', 'it will not be shown again', {
      contains: true,
    })
    const secret = await page.locator('[data-test="one-time-secret-value"]').inputValue()
    assert.match(secret, /^lg_live_/)

    const stored = await ApiKey.query().where('name', 'Website form').firstOrFail()
    assert.equal(stored.publisherId, publisher.id)
    assert.equal(stored.ownerType, 'publisher')
    assert.deepEqual(stored.permissions, ['submit'])
    assert.equal(stored.environment, 'live')
    assert.notInclude(JSON.stringify(stored.$attributes), secret)
    const row = page.locator('tr', { hasText: 'Website form' })
    await expectText(
      page,
      'tr:has-text("Website form") [data-test="credential-owner"]',
      `Publisher ${publisher.name}`
    )
    assert.include(await row.innerText(), stored.hint)

    await page.locator('[data-test="copy-secret"]').click()
    await expectText(page, '[data-test="copy-secret"]', 'Copied')
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret)

    await assertAccessibleAtPhoneWidth(page, assert)

    // Shown once: the next visit no longer holds it.
    await page.reload()
    await expectText(page, '[data-test="credential-name"]', 'Website form', { contains: true })
    assert.equal(await page.locator('[data-test="one-time-secret"]').count(), 0)
    assert.notInclude(await page.content(), secret)

    const accepted = await client
      .post('/v1/leads')
      .bearerToken(secret)
      .json(leadBody(publisher.slug))
    accepted.assertStatus(201)

    await page.getByRole('button', { name: 'Revoke API key Website form' }).click()
    await expectText(page, '[role="alertdialog"]', 'This cannot be undone', { contains: true })
    assert.deepEqual(await seriousAxeViolations(page), [])
    await page.getByRole('button', { name: 'Revoke', exact: true }).click()
    await page
      .locator('[data-test="credential-name"]', { hasText: 'Website form' })
      .filter({ hasText: 'revoked' })
      .waitFor({ timeout: 5000 })
    assert.equal(await page.getByRole('button', { name: 'Revoke API key Website form' }).count(), 0)
    await stored.refresh()
    assert.isNotNull(stored.revokedAt)

    const refused = await client
      .post('/v1/leads')
      .bearerToken(secret)
      .json(leadBody(publisher.slug))
    refused.assertStatus(401)
  })

  test('the operator creates an OAuth client whose secret is shown once', async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await openAs(page, operator.email, '/operator/keys')

    await page.locator('[data-test="create-client"]').click()
    const form = page.locator('[data-test="client-form"]')
    await form.getByLabel('Name').fill('Zapier')
    await form.getByRole('button', { name: 'Create client' }).click()
    await expectText(page, '[data-test="one-time-secret"]', 'Client secret', { contains: true })
    const secret = await page.locator('[data-test="one-time-secret-value"]').inputValue()
    assert.match(secret, /^lgcs_/)

    const client = await OauthClient.query().where('name', 'Zapier').firstOrFail()
    assert.equal(client.ownerType, 'operator')
    assert.include(await pageText(page), client.clientId)
  })

  test('a publisher user creates its own sandbox key and is offered no other owner', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const other = await createPublisher()
    const user = await publisherUser(publisher.id, ['read', 'submit'])

    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/keys')
    await expectText(page, '[data-test="empty-state"]', 'No API keys yet', { contains: true })
    await expectText(page, '[data-test="empty-state"]', 'create a sandbox key to test', {
      contains: true,
    })
    await assertAccessibleAtPhoneWidth(page, assert)

    await page.locator('[data-test="create-key"]').click()
    assert.equal(await page.locator('[data-test="owner"]').count(), 0)
    assert.notInclude(await page.locator('[data-test="key-form"]').innerText(), other.name)
    await page.keyboard.press('Escape')

    await createKeyThroughDialog(page, { name: 'Sandbox test', permissions: ['read', 'submit'] })
    await expectText(page, '[data-test="one-time-secret"]', 'Sandbox test', { contains: true })
    const secret = await page.locator('[data-test="one-time-secret-value"]').inputValue()
    assert.match(secret, /^lg_test_/)

    const stored = await ApiKey.query().where('name', 'Sandbox test').firstOrFail()
    assert.equal(stored.publisherId, publisher.id)
    assert.equal(stored.environment, 'sandbox')
    assert.equal(stored.createdBy, `publisher:${user.id}`)
    await expectText(page, '[data-test="credential-environment"]', 'sandbox')
  })

  test('a publisher user cannot give a key more than it holds: the refusal shows at Permissions', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const user = await publisherUser(publisher.id, ['submit'])
    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/keys')

    await createKeyThroughDialog(page, { name: 'Too much', permissions: ['read', 'submit'] })
    await expectText(
      page,
      '#key-permissions-error',
      'A credential cannot be given permissions its creator does not hold.'
    )
    assert.lengthOf(await ApiKey.query().where('publisher_id', publisher.id), 0)
  })

  test('a publisher user with only "read" sees its keys but is offered none to create', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const user = await publisherUser(publisher.id, ['read'])
    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/keys')
    await expectText(page, '[data-test="empty-state"]', 'Ask your operator', { contains: true })
    assert.equal(await page.locator('[data-test="create-key"]').count(), 0)
  })

  test('a buyer sees only the keys issued to it, and may not create one', async ({
    browserContext,
    assert,
  }) => {
    const [buyer, other] = [await createBuyer(), await createBuyer()]
    const mine = await createKey({ buyerId: buyer.id, permissions: ['read'] })
    const theirs = await createKey({ buyerId: other.id, permissions: ['read'] })
    const publisherKey = await createKey({ publisherId: (await createPublisher()).id })
    const user = await createPortalUser('buyer_user', { buyerId: buyer.id })

    const page = await browserContext.newPage()
    await openAs(page, user.email, '/buyer/keys')
    await expectText(page, '[data-test="credential-name"]', mine.apiKey.name, { contains: true })
    const text = await pageText(page)
    assert.notInclude(text, theirs.apiKey.name)
    assert.notInclude(text, publisherKey.apiKey.name)
    assert.equal(await page.locator('[data-test="create-key"]').count(), 0)
    assert.equal(await page.locator('[data-test="revoke"]').count(), 0)
    await assertAccessibleAtPhoneWidth(page, assert)

    // A key asked for by hand (no form offers one) is refused, and nothing is stored.
    const xsrf = (await browserContext.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
    const crafted = await page.request.post('/buyer/keys', {
      headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf!.value), 'X-Inertia': 'true' },
      data: { name: 'Made by hand', permissions: ['read'], environment: 'live' },
      maxRedirects: 0,
    })
    assert.notEqual(crafted.status(), 200)
    assert.isBelow(crafted.status(), 500)
    assert.lengthOf(await ApiKey.query().where('name', 'Made by hand'), 0)

    // Another portal's keys page does not exist for a buyer.
    const operatorPage = await page.goto('/operator/keys')
    assert.equal(operatorPage!.status(), 404)
  })

  test("another publisher's key answers 404 to a revocation from the portal", async ({
    browserContext,
    assert,
  }) => {
    const publisher = await createPublisher()
    const theirs = await createKey({ publisherId: (await createPublisher()).id })
    const user = await publisherUser(publisher.id, ['read', 'submit'])
    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/keys')

    const xsrf = (await browserContext.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
    const response = await page.request.delete(`/publisher/keys/${theirs.apiKey.id}`, {
      headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf!.value), 'X-Inertia': 'true' },
      maxRedirects: 0,
    })
    assert.equal(response.status(), 404)
    await theirs.apiKey.refresh()
    assert.isNull(theirs.apiKey.revokedAt)
  })
})
