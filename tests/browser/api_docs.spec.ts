import { test } from '@japa/runner'

test.group('API reference page', () => {
  test('renders every operation of the OpenAPI document without a script error', async ({
    browserContext,
    client,
    assert,
  }) => {
    const document = (await client.get('/v1/openapi.json')).body()
    const operations = Object.values(document.paths as Record<string, Record<string, any>>).flatMap(
      (item) =>
        ['get', 'post', 'put', 'patch', 'delete']
          .filter((method) => item[method])
          .map((method) => item[method].operationId as string)
    )

    const page = await browserContext.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      // The app ships no favicon; the browser's request for one is not the page's doing.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        errors.push(message.text())
    })
    await page.goto('/docs')
    await page.waitForSelector('[data-test="docs-title"]')

    assert.sameMembers(
      await page
        .locator('[data-operation]')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-operation'))),
      operations
    )
    const lead = page.locator('[data-operation="submitLead"]')
    assert.include(await lead.locator('.curl').innerText(), 'Idempotency-Key')
    assert.include(await lead.innerText(), 'contact.email')
    assert.include(
      await page.locator('[data-operation="rotateWebhookSecret"]').innerText(),
      'planned'
    )
    assert.deepEqual(errors, [])
  })
})
