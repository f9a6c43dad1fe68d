import { test } from '@japa/runner'

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

test.group('API reference page', () => {
  test('renders every operation of the OpenAPI document without a script error', async ({
    browserContext,
    client,
    assert,
  }) => {
    const response = await client.get('/v1/openapi.json')
    const paths = Object.values(response.body().paths as Record<string, Record<string, any>>)
    const operations = paths.flatMap((item) =>
      METHODS.filter((method) => item[method]).map((method) => item[method])
    )
    const planned = operations.filter((operation) => operation['x-leadgate-status'] === 'planned')

    const page = await browserContext.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      // The app ships no favicon; the browser's request for one is not the page's doing.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) {
        errors.push(message.text())
      }
    })
    await page.goto('/docs')
    await page.waitForSelector('[data-test="docs-title"]')

    const rendered = await page
      .locator('[data-operation]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-operation')))
    assert.sameMembers(
      rendered,
      operations.map((operation) => operation.operationId)
    )
    const lead = page.locator('[data-operation="submitLead"]')
    assert.include(await lead.locator('.curl').innerText(), 'Idempotency-Key')
    assert.include(await lead.innerText(), 'contact.email')
    assert.include(await page.locator('[id="event-match.found"]').innerText(), 'data.contact.email')
    for (const operation of planned) {
      assert.include(
        await page.locator(`[data-operation="${operation.operationId}"]`).innerText(),
        'planned'
      )
    }
    assert.deepEqual(errors, [])
  })
})
