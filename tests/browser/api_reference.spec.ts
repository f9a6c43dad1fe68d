import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { pageWidth, seriousAxeViolations } from '#tests/browser/helpers'

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** Every operation summary of the served document: the one truth the reference renders. */
async function servedSummaries(client: { get(url: string): any }) {
  const response = await client.get('/v1/openapi.json')
  const paths = Object.values(response.body().paths as Record<string, Record<string, any>>)
  return paths.flatMap((item) =>
    METHODS.filter((method) => item[method]).map((method) => item[method].summary as string)
  )
}

/**
 * Opens /docs and waits for Scalar to render the document. Records every
 * request the page makes and every script error, so a test can say that
 * nothing left the origin and nothing broke.
 */
async function openReference(page: Page) {
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  page.on('pageerror', (error) => errors.push(error.message))
  const response = await page.goto('/docs')
  await page.getByRole('heading', { name: 'Leadgate API', level: 1 }).waitFor({ timeout: 30_000 })
  return { response, requests, errors }
}

/*
 * The reference is heavy (Scalar): each test reads it as one reader would,
 * rather than loading it once per check.
 */
test.group('API reference (/docs)', () => {
  test('on a desktop: every operation, search, curl and fetch samples, try-it, all on this origin, no serious axe violation', async ({
    browserContext,
    client,
    assert,
  }) => {
    const summaries = await servedSummaries(client)
    const page = await browserContext.newPage()
    const { response, requests, errors } = await openReference(page)
    assert.equal(response!.status(), 200)
    const origin = new URL(page.url()).origin

    // The sidebar lists every operation of the served document, by summary.
    const sidebar = page.locator('.t-doc__sidebar')
    await sidebar.getByText('Deliver a lead', { exact: true }).first().waitFor()
    const listed = await sidebar.innerText()
    for (const summary of summaries) assert.include(listed, summary)
    // A full-page reference: not inside the portal's shell.
    assert.equal(await page.locator('.brand-bar').count(), 0)
    assert.deepEqual(await seriousAxeViolations(page), [])

    // Search finds the leads operations, and a result leads to the operation.
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click()
    await page.getByRole('combobox').fill('leads')
    const results = page.getByRole('option')
    const deliver = results.filter({ hasText: 'Deliver a lead' }).first()
    await deliver.waitFor({ timeout: 5000 })
    assert.include((await results.allInnerTexts()).join('\n'), '/v1/leads')
    await deliver.click()

    // curl first, against this instance, with the key as a bearer token; fetch besides.
    const operation = page.locator('section[id$="/tag/leads/POST/v1/leads"]')
    const sample = operation.locator('.scalar-code-block').filter({ hasText: 'curl' }).first()
    await sample.waitFor({ timeout: 10_000 })
    const code = await sample.innerText()
    assert.include(code, `curl ${origin}/v1/leads`)
    assert.include(code, 'Authorization: Bearer')
    await operation.locator('[data-testid="client-picker"]').click()
    const clients = (await page.getByRole('listbox').innerText()).split('\n').map((s) => s.trim())
    assert.deepEqual(clients.filter(Boolean), [
      'JavaScript',
      'Fetch',
      'Node.js',
      'Fetch',
      'Shell',
      'Curl',
    ])
    await page.keyboard.press('Escape')

    // Try-it opens in the page, addressed to this instance.
    await operation.getByRole('button', { name: 'Test Request' }).click()
    await page.getByRole('button', { name: 'Send' }).first().waitFor()
    await page.waitForLoadState('networkidle')

    assert.include(requests, `${origin}/v1/openapi.json`)
    const elsewhere = requests.filter(
      (url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)
    )
    assert.deepEqual(elsewhere, [])
    // Nor does any link hand the document's address to Scalar's hosted client.
    const hrefs = await page
      .locator('a[href]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    assert.notExists(hrefs.find((href) => href.includes('?url=')))
    assert.deepEqual(errors, [])
  })

  test('on a phone (390 px): the page fits and has no serious axe violation', async ({
    browserContext,
    assert,
  }) => {
    const page = await browserContext.newPage()
    await page.setViewportSize({ width: 390, height: 844 })
    const { requests } = await openReference(page)
    await page.getByRole('heading', { name: 'Leads', level: 2 }).waitFor()
    assert.isAtMost(await pageWidth(page), 390)
    assert.deepEqual(await seriousAxeViolations(page), [])
    const origin = new URL(page.url()).origin
    assert.deepEqual(
      requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)),
      []
    )
  })
})
