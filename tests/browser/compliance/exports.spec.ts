import { parse } from 'csv-parse/sync'
import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import AuditVerifierService from '#services/audit/audit_verifier_service'
import app from '@adonisjs/core/services/app'
import type { Page } from 'playwright'
import db from '@adonisjs/lucid/services/db'
import { entryHash, GENESIS_HASH } from '#services/audit/audit_chain_service'
import AuditSealerService from '#services/audit/audit_sealer_service'
import { tamperAudit } from '#tests/support/admin_db'
import { leadBody, livePublisher } from '#tests/support/fixtures'
import {
  createPortalUser,
  expectText,
  pageWidth,
  seriousAxeViolations,
  signIn,
} from '#tests/browser/helpers'

const DAY = 86_400_000

/** Readable by axe-core, and no wider than a phone at a phone's width. */
async function assertAccessible(page: Page, assert: any) {
  assert.deepEqual(await seriousAxeViolations(page), [], page.url())
  await page.setViewportSize({ width: 390, height: 844 })
  assert.isAtMost(await pageWidth(page), 390, page.url())
  await page.setViewportSize({ width: 1280, height: 900 })
}

/**
 * Moves a lead's whole trail `days` back in time, hashes and links recomputed
 * so it still verifies: a lead of another period, as if it had arrived then.
 */
async function backdate(leadId: string, days: number) {
  const entries = await db.from('audit.entries').where('lead_id', leadId).orderBy('lead_seq')
  let prevHash = GENESIS_HASH
  for (const entry of entries) {
    const ts = new Date(new Date(entry.ts).getTime() - days * DAY).toISOString()
    const hash = entryHash({ ...entry, ts, prev_hash: prevHash })
    await tamperAudit('UPDATE audit.entries SET ts = $1, prev_hash = $2, hash = $3 WHERE id = $4', [
      ts,
      prevHash,
      hash,
      entry.id,
    ])
    prevHash = hash
  }
  await db.from('audit.chain_heads').where('lead_id', leadId).update({ last_hash: prevHash })
  await db
    .from('lead_facts')
    .where('lead_id', leadId)
    .update({ created_at: new Date(Date.now() - days * DAY) })
}

const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10)

async function pickDay(page: Page, label: string, value: string) {
  const input = page.getByLabel(label)
  await input.click()
  await input.fill(value)
  await page.keyboard.press('Enter')
  await page.keyboard.press('Escape')
  if ((await input.inputValue()) !== value)
    throw new Error(`${label} reads ${await input.inputValue()}`)
}

/** Prepares the export or bundle, then saves it through the page's download link. */
async function download(page: Page, prepare: string, link: string) {
  await page.locator(`[data-test="${prepare}"]`).click()
  await page.locator(`[data-test="${link}"]`).waitFor({ timeout: 15_000 })
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`[data-test="${link}"]`).click(),
  ])
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') }
}

/** The rows of an audit CSV as objects by column. */
function csvRows(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true })
}

test.group('Compliance / audit and exports', () => {
  test('compliance exports', async ({ browserContext, assert }) => {
    const audited = await livePublisher()
    const other = await livePublisher()
    const page = await browserContext.newPage()
    const submit = async (who: { publisher: { slug: string }; key: string }) => {
      const response = await page.request.post('/v1/leads', {
        data: leadBody(who.publisher.slug),
        headers: { Authorization: `Bearer ${who.key}` },
      })
      assert.equal(response.status(), 201)
      return (await response.json()).id as string
    }
    const older = await submit(audited)
    const today = await submit(audited)
    const elsewhere = await submit(other)
    await backdate(older, 3)
    await new AuditSealerService().sealAll()

    // An officer the operator limited to one publisher.
    const officer = await createPortalUser('compliance_officer')
    officer.scope = { publishers: [audited.publisher.slug] }
    await officer.save()
    await signIn(page, officer.email)
    await page.locator('[data-test="verify-lead"]').waitFor({ timeout: 30_000 })
    await page.assertPath('/compliance')
    await expectText(page, '[data-test="audit-scope"]', audited.publisher.slug, { contains: true })
    await assertAccessible(page, assert)

    // Verify a lead's trail: valid, and its proof bundle comes with it.
    await page.getByLabel('Lead id').fill(today)
    await page.locator('[data-test="verify-submit"]').click()
    await expectText(page, '[data-test="verification-valid"]', 'Valid', { contains: true })
    await expectText(page, '[data-test="verification-valid"]', today, { contains: true })
    const proof = await download(page, 'prepare-proof', 'download-proof')
    assert.equal(proof.name, `proof-${today}.json`)
    const bundle = JSON.parse(proof.text)
    assert.equal(bundle.lead_id, today)
    assert.deepEqual(
      bundle.entries.map((entry: { event: string }) => entry.event),
      ['lead.received', 'consent.captured', 'lead.validated', 'lead.accepted']
    )
    assert.lengthOf(bundle.proofs, 4)
    await assertAccessible(page, assert)

    // The backdated lead still verifies; a lead outside the scope is not found, and nothing shows.
    await page.getByLabel('Lead id').fill(older)
    await page.locator('[data-test="verify-submit"]').click()
    await expectText(page, '[data-test="verification-valid"]', older, { contains: true })
    await page.getByLabel('Lead id').fill(elsewhere)
    await page.locator('[data-test="verify-submit"]').click()
    await expectText(page, '.p-toast', 'No lead with this id is visible to you.', {
      contains: true,
    })
    assert.notInclude(await page.locator('main').innerText(), elsewhere.slice(-12))
    await page.locator('[data-test="log-out-of-scope"]').waitFor()

    // Exports: a CSV of today's events holds today's lead only.
    await page.goto('/compliance/exports')
    await page.locator('[data-test="export-form"]').waitFor({ timeout: 30_000 })
    await expectText(page, '[data-test="page-title"]', 'Exports')
    await assertAccessible(page, assert)
    await pickDay(page, 'Events from (UTC)', day(0))
    await expectText(page, '[data-test="export-api-call"]', `from=${day(0)}`, { contains: true })
    const todays = await download(page, 'prepare-export', 'download-export')
    assert.match(todays.name, /^audit-log-.*\.csv$/)
    const rows = csvRows(todays.text)
    assert.lengthOf(rows, 4)
    for (const row of rows) {
      assert.equal(row.lead_id, today)
      assert.isAtLeast(Date.parse(row.ts), Date.parse(day(0)))
    }
    await expectText(page, '[data-test="export-status"]', 'Ready: 4 events', { contains: true })

    // Three days back: the backdated lead only, in that period's days.
    await pickDay(page, 'Events from (UTC)', day(-3))
    await pickDay(page, 'Events before (UTC)', day(-2))
    const past = csvRows((await download(page, 'prepare-export', 'download-export')).text)
    assert.deepEqual([...new Set(past.map((row) => row.lead_id))], [older])
    for (const row of past) assert.isBelow(Date.parse(row.ts), Date.parse(day(-2)))

    // Everything it may see, as nested JSON: the other publisher's lead is not in it.
    await pickDay(page, 'Events from (UTC)', day(-30))
    await page.getByLabel('Events before (UTC)').fill('')
    await page.keyboard.press('Escape')
    await page.getByText('JSON — one object per lead').click()
    const nested = JSON.parse((await download(page, 'prepare-export', 'download-export')).text)
    const leads = nested.leads.map((lead: { lead_id: string }) => lead.lead_id).sort()
    assert.deepEqual(leads, [older, today].sort())
    assert.isFalse(nested.complete)
  })

  test('an officer the operator did not limit verifies the whole log', async ({
    browserContext,
    assert,
  }) => {
    const officer = await createPortalUser('compliance_officer')
    const page = await browserContext.newPage()
    await signIn(page, officer.email)
    await page.locator('[data-test="verify-log"]').waitFor({ timeout: 30_000 })
    await page.locator('[data-test="verify-log"]').click()
    // The page says what the verifier finds: other specs tamper with this shared log on purpose.
    const { valid } = await (await app.container.make(AuditVerifierService)).verifyLog()
    await expectText(page, '[data-test="log-verification"]', valid ? 'Valid:' : 'Broken:', {
      contains: true,
    })
    assert.equal(await page.locator('[data-test="audit-scope"]').count(), 0)
  })
})
