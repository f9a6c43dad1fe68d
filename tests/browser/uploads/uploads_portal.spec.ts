import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import type { Page } from 'playwright'
import type Publisher from '#models/publisher'
import { startUploadWorker } from '#services/uploads/upload_worker'
import {
  assertUsable,
  createOperator,
  createPortalUser,
  expectText,
  pageText,
  signedIn,
  toast,
} from '#tests/browser/helpers'
import {
  csvOf,
  leadsOf,
  upload,
  uploadingPublisher,
  validRow,
} from '#tests/functional/uploads/upload_support'

/**
 * The uploads pages, as a publisher's people and the operator use them.
 * Validation and acceptance run in the worker, started in this process as
 * the functional upload specs do; the first test starts it only once the
 * page shows the upload waiting, to watch the page follow it.
 */
let stopWorker: (() => Promise<void>) | undefined
async function ensureWorker() {
  stopWorker ??= await startUploadWorker({ sweep: false })
}

async function publisherUser(publisher: Publisher, permissions: ('read' | 'submit')[]) {
  const user = await createPortalUser('publisher_user', { publisherId: publisher.id })
  user.permissions = permissions
  await user.save()
  return user
}

async function choose(page: Page, select: ReturnType<Page['locator']>, option: string) {
  await select.click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** Waits for the page to show the upload in `status` (it polls; nothing reloads it here). */
async function statusShown(page: Page, status: string) {
  await page
    .locator(`[data-test="upload-status"][data-status="${status}"]`)
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 })
}

/** Waits until the rows table shows `count` rows (a filter has been applied). */
const rowsShown = (page: Page, count: number) =>
  page.waitForFunction(`document.querySelectorAll('[data-test="row-number"]').length === ${count}`)

/**
 * Opens a page and waits for its title: a busy machine (Vite transforming a
 * page on its first visit) may take longer than expectText's 5 s.
 */
async function open(page: Page, path: string) {
  const response = await page.goto(path)
  await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 30_000 })
  return response
}

const rowNumbers = async (page: Page) =>
  (await page.locator('[data-test="row-number"]').allInnerTexts()).map(Number)

test.group('Uploads / the portal', (group) => {
  group.teardown(async () => {
    await stopWorker?.()
    stopWorker = undefined
  })

  test('a publisher uploads a CSV, reads why each row failed, downloads them, accepts the rest', async ({
    browserContext,
    assert,
  }) => {
    const { publisher } = await uploadingPublisher()
    const user = await publisherUser(publisher, ['read', 'submit'])
    const page = await browserContext.newPage()
    await signedIn(page, user.email)

    // Nothing yet: the page says what to do, and offers the upload area.
    await page.getByRole('link', { name: 'Uploads' }).click()
    await page.waitForURL('**/publisher/uploads')
    await page.locator('[data-test="empty-state"]').waitFor({ timeout: 30_000 })
    await expectText(page, '[data-test="empty-state"] h2', 'No uploads yet')
    await expectText(page, '[data-test="empty-state"]', 'Upload a CSV or JSON Lines file', {
      contains: true,
    })
    await expectText(page, '[data-test="drop-zone"]', 'up to 50.0 MB', { contains: true })
    await assertUsable(page, assert)

    const first = validRow({ name: 'Ada Valid' })
    const rows = [
      first,
      validRow({ name: 'Bram Valid' }),
      validRow({ name: 'Cor Phone', phone: '0612' }),
      validRow({ name: 'Dirk Consent', consent_given: 'no' }),
      validRow({ name: 'Eva Bill', monthly_bill: '40' }),
      { ...validRow({ name: 'Fenna Twice' }), email: first.email },
    ]
    await page.setInputFiles('#upload-file', {
      name: 'october.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csvOf(rows, ';')),
    })
    await expectText(page, '[data-test="chosen-file"]', 'october.csv', { contains: true })
    await page.getByRole('button', { name: 'Upload and check' }).click()
    await page.waitForURL(/\/publisher\/uploads\/[0-9a-f-]{36}$/)
    const uploadPath = new URL(page.url()).pathname

    // The worker is not running yet: the page shows the upload waiting to be checked.
    await statusShown(page, 'validating')
    await expectText(page, '[data-test="progress-words"]', 'Checking rows: 0 of 6', {
      contains: true,
    })
    assert.isTrue(await page.locator('[data-test="accept"]').isDisabled())
    await assertUsable(page, assert)

    // Once it runs, the page follows it to the end on its own.
    await ensureWorker()
    await statusShown(page, 'validated')
    assert.equal(new URL(page.url()).pathname, uploadPath)
    assert.equal(await page.locator('[data-test="upload-progress"]').count(), 0)
    await expectText(page, '[data-test="count-accepted"] strong', '2')
    await expectText(page, '[data-test="count-flagged"] strong', '1')
    await expectText(page, '[data-test="count-rejected"] strong', '3')
    await expectText(page, '[data-test="file-delimiter"]', 'semicolon')
    await expectText(page, '[data-test="file-encoding"]', 'UTF-8')
    await page.getByText('The columns and the lead fields they fill').click()
    await expectText(page, '[data-test="mapping-used"]', 'contact.postal_code', { contains: true })
    assert.deepEqual(await rowNumbers(page), [1, 2, 3, 4, 5, 6])

    // Each faulty row, with its reason, before anything is accepted.
    await page.locator('[data-test="count-rejected"]').click()
    await page.waitForURL(/outcome=rejected/)
    await rowsShown(page, 3)
    assert.deepEqual(await rowNumbers(page), [3, 4, 6])
    const reasonsOf = async (index: number) =>
      page
        .locator('[data-test="upload-rows"] tbody tr')
        .nth(index)
        .locator('[data-test="row-reason"]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-code')))
    assert.include(await reasonsOf(0), 'invalid_phone')
    assert.include(await reasonsOf(1), 'missing_consent')
    assert.include(await reasonsOf(2), 'duplicate')
    await expectText(page, '[data-test="row-reason"] strong', 'Invalid phone number')
    await expectText(page, '[data-test="row-reason"] strong', 'No consent given')
    await choose(page, page.locator('[data-test="filter-outcome"]'), 'Flagged')
    await page.waitForURL(/outcome=flagged/)
    await rowsShown(page, 1)
    assert.deepEqual(await rowNumbers(page), [5])
    await expectText(page, '[data-test="row-reason"] strong', 'Outside the target audience')
    assert.equal((await leadsOf(publisher)).length, 0)

    // The faulty rows as a CSV file: number, outcome, reasons, then the cells as read.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="download-faulty"]').click(),
    ])
    const report = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/)
    assert.match(download.suggestedFilename(), /^upload-[0-9a-f-]{36}-rejected\.csv$/)
    assert.match(report[0], /^row,outcome,reasons,lead_id,lead_status,name,email,phone/)
    assert.deepEqual(
      report.slice(1).map((line) => line.split(',').slice(0, 2).join(',')),
      ['3,rejected', '4,rejected', '6,rejected']
    )
    assert.include(report[1], 'invalid_phone (contact.phone)')
    assert.include(report[1], 'Cor Phone')

    // Accepting the valid ones: the page follows the worker again, then says what it made.
    await open(page, uploadPath)
    await expectText(page, '[data-test="accept"]', 'Accept 2 valid rows')
    await page.locator('[data-test="include-flagged"]').click()
    await expectText(page, '[data-test="accept"]', 'Accept 2 valid rows and 1 flagged')
    await page.locator('[data-test="include-flagged"]').click()
    await page.locator('[data-test="accept"]').click()
    await toast(page, 'Accepting 2 rows')
    await statusShown(page, 'accepted')
    await expectText(page, '[data-test="accepted-summary"]', '2 leads were created', {
      contains: true,
    })
    assert.lengthOf(await page.locator('[data-test="row-lead"]').all(), 2)
    // The flagged row may still follow, once.
    await expectText(page, '[data-test="accept-flagged"]', 'Also accept the 1 flagged')
    await assertUsable(page, assert)

    const leads = (await leadsOf(publisher)).filter((lead: any) => lead.channel === 'upload')
    assert.sameMembers(
      leads.map((lead: any) => lead.contact.name),
      ['Ada Valid', 'Bram Valid']
    )
    await page.locator('[data-test="uploaded-leads"]').click()
    await page.waitForURL('**/publisher/leads?channel=upload')
    await expectText(page, '[data-test="lead-link"]', 'Ada Valid', { contains: true })
    await expectText(page, '[data-test="lead-link"]', 'Bram Valid', { contains: true })
    assert.lengthOf(await page.locator('[data-test="lead-link"]').all(), 2)

    // The list shows the upload, with its counts.
    await open(page, '/publisher/uploads')
    await expectText(page, '[data-test="upload-link"]', 'october.csv')
    await expectText(page, '[data-test="upload-counts"]', '2 valid · 1 flagged · 3 rejected')
    await expectText(page, '[data-test="uploads"]', user.email, { contains: true })
    await assertUsable(page, assert)
  }).timeout(240_000)

  test('a column it could not read is mapped on the report, and the same file checked again', async ({
    browserContext,
    assert,
  }) => {
    await ensureWorker()
    const { publisher } = await uploadingPublisher()
    const user = await publisherUser(publisher, ['read', 'submit'])
    const page = await browserContext.newPage()
    await signedIn(page, user.email)
    await open(page, '/publisher/uploads')

    const { email, ...rest } = validRow({ name: 'Gijs Mapped' })
    const text = csvOf([{ 'E-mail (work)!': email, ...rest }])
    await page.setInputFiles('#upload-file', {
      name: 'export.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(text),
    })
    await page.getByRole('button', { name: 'Upload and check' }).click()
    await page.waitForURL(/\/publisher\/uploads\/[0-9a-f-]{36}$/)
    const firstPath = new URL(page.url()).pathname
    await statusShown(page, 'validated')

    const step = page.locator('[data-test="mapping-step"]')
    await expectText(page, '[data-test="mapping-step"] h2', 'One column was not read')
    await expectText(page, '[data-test="mapping-file"]', 'export.csv', { contains: true })
    await assertUsable(page, assert)
    await choose(page, step.locator('[data-test="mapping-row"] .p-select'), 'E-mail address')
    await step.getByRole('button', { name: 'Check the file again with these columns' }).click()
    await page.waitForURL(
      (url) =>
        /\/publisher\/uploads\/[0-9a-f-]{36}$/.test(url.pathname) && url.pathname !== firstPath
    )
    await statusShown(page, 'validated')
    assert.equal(await page.locator('[data-test="mapping-step"]').count(), 0)
    await page.getByText('The columns and the lead fields they fill').click()
    await expectText(page, '[data-test="mapping-used"]', 'contact.email', { contains: true })
    await expectText(page, '[data-test="count-accepted"] strong', '1')
  }).timeout(120_000)

  test("another publisher's upload is not found; a reading user sees the list without the upload area", async ({
    browserContext,
    client,
    assert,
  }) => {
    const own = await uploadingPublisher()
    const other = await uploadingPublisher()
    const ownUpload = (
      await upload(client, own.key, csvOf([validRow()]), { filename: 'ours.csv' })
    ).body()
    const otherUpload = (
      await upload(client, other.key, csvOf([validRow()]), { filename: 'theirs.csv' })
    ).body()
    const reader = await publisherUser(own.publisher, ['read'])
    const page = await browserContext.newPage()
    await signedIn(page, reader.email)

    for (const path of [
      `/publisher/uploads/${otherUpload.id}`,
      `/publisher/uploads/${otherUpload.id}/report`,
    ]) {
      const response = await open(page, path)
      assert.equal(response!.status(), 404, path)
      await expectText(page, '[data-test="page-title"]', 'Page not found')
    }
    const xsrf = (await browserContext.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')
    const refused = await page.request.post(`/publisher/uploads/${otherUpload.id}/accept`, {
      data: {},
      headers: { 'x-xsrf-token': decodeURIComponent(xsrf!.value) },
    })
    assert.equal(refused.status(), 404)

    await open(page, '/publisher/uploads')
    await expectText(page, '[data-test="upload-link"]', 'ours.csv')
    assert.notInclude(await pageText(page), 'theirs.csv')
    assert.equal(await page.locator('#upload-file').count(), 0)
    await page.locator('[data-test="upload-link"]').click()
    await page.waitForURL(`**/publisher/uploads/${ownUpload.id}`)
    assert.equal(await page.locator('[data-test="accept-panel"]').count(), 0)
  })

  test('the operator sees every publisher’s uploads, and one publisher’s when it filters', async ({
    browserContext,
    client,
    assert,
  }) => {
    const first = await uploadingPublisher()
    const second = await uploadingPublisher()
    const mine = (
      await upload(client, first.key, csvOf([validRow()]), { filename: 'a.csv' })
    ).body()
    const theirs = (
      await upload(client, second.key, csvOf([validRow()]), { filename: 'b.csv' })
    ).body()
    const operator = await createOperator()
    const page = await browserContext.newPage()
    await signedIn(page, operator.email)

    await open(page, `/operator/uploads?publisher_id=${second.publisher.id}`)
    await page.locator('[data-test="upload-link"]').first().waitFor()
    assert.deepEqual(await page.locator('[data-test="upload-publisher-name"]').allInnerTexts(), [
      second.publisher.name,
    ])
    await assertUsable(page, assert)
    await page.locator('[data-test="upload-link"]').click()
    await page.waitForURL(`**/operator/uploads/${theirs.id}`)
    await expectText(page, '[data-test="page-title"]', 'b.csv')
    await open(page, `/operator/uploads/${mine.id}`)
    await expectText(page, '[data-test="page-title"]', 'a.csv')
  })
})
