import { test } from '@japa/runner'
import { uuidv7 } from 'uuidv7'
import { encodeCursor } from '#services/sql/cursor_pagination'
import { livePublisher, operatorKey, unique } from '#tests/support/fixtures'
import {
  createOperator,
  createPortalUser,
  expectText,
  seriousAxeViolations,
} from '#tests/browser/helpers'
import { disableUnscopedRules, factsOf } from '#tests/functional/routing/routing_support'
import {
  assertAccessibleAndNarrow,
  deliver,
  openPage,
  signInAs,
  trailOf,
} from '#tests/browser/leads/leads_support'

/** A publisher whose rules hold a lead with an invalid phone for review instead of rejecting it. */
async function flaggingPublisher() {
  return livePublisher({ phone: { action: 'flag' } })
}

const flaggedLead = async (
  client: Parameters<typeof deliver>[0],
  world: Awaited<ReturnType<typeof flaggingPublisher>>,
  name: string
) => {
  const lead = await deliver(client, world, { contact: { name, phone: '12' } })
  if (lead.status !== 'flagged') throw new Error(`lead not flagged: ${lead.status}`)
  return lead.id
}

/**
 * The review queue from this moment on. The queue pages oldest first by lead id (a UUIDv7, made
 * in this process), and the shared test database holds other specs' flagged leads, often more
 * than a page: the page's own cursor starts it after an id made now, before this test's leads.
 */
const queueFromNow = () => `/operator/review?cursor=${encodeCursor(uuidv7())}`

test.group('Leads / the review queue', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('operator reviews a flagged lead: approve, then reject another with a reason', async ({
    browserContext,
    client,
    assert,
  }) => {
    const operator = await createOperator()
    const world = await flaggingPublisher()
    const queue = queueFromNow()
    const anna = `Anna ${unique('approve')}`
    const rick = `Rick ${unique('reject')}`
    const annaId = await flaggedLead(client, world, anna)
    const rickId = await flaggedLead(client, world, rick)

    const page = await browserContext.newPage()
    await signInAs(page, operator.email)
    await openPage(page, queue)
    await expectText(page, '[data-test="page-title"]', 'Review')
    // Oldest first: Anna arrived before Rick.
    const names = await page.locator('[data-test="lead-link"]').allInnerTexts()
    assert.isBelow(names.indexOf(anna), names.indexOf(rick))
    assert.isAtLeast(names.indexOf(anna), 0)
    await expectText(page, `tr:has-text("${anna}") [data-test="review-reasons"]`, 'Invalid phone', {
      contains: true,
    })
    await assertAccessibleAndNarrow(page, assert)

    // Approve, confirmed: the lead leaves the queue and is accepted, with the reviewer in its trail.
    await page.locator(`tr:has-text("${anna}") [data-test="approve"]`).click()
    await page.getByRole('button', { name: 'Approve lead' }).click()
    await expectText(page, '.p-toast-message', 'Lead approved', { contains: true })
    await page.locator(`tr:has-text("${anna}")`).waitFor({ state: 'detached' })
    assert.equal((await factsOf(annaId)).status, 'accepted')
    const annaTrail = await trailOf(annaId)
    assert.include(annaTrail.at(-1), {
      actor: `operator:${operator.id}`,
      status_from: 'flagged',
      status_to: 'accepted',
    })

    await openPage(page, `/operator/leads/${annaId}`)
    await expectText(page, '[data-test="lead-status"]', 'accepted')
    await expectText(page, '[data-test="trail-actor"]', operator.email)
    await expectText(page, '[data-test="review"]', 'Approved', { contains: true })
    await page.locator('[data-test="verify"]').click()
    await expectText(page, '[data-test="verification"]', 'Valid', { contains: true })
    await expectText(page, '[data-test="verification"]', `all ${annaTrail.length} entries`, {
      contains: true,
    })
    await assertAccessibleAndNarrow(page, assert)

    // Reject: the dialog refuses an empty reason, next to the field, and changes nothing.
    await openPage(page, queue)
    await page.locator(`tr:has-text("${rick}") [data-test="reject"]`).click()
    const dialog = page.locator('[data-test="reject-dialog"]')
    await dialog.waitFor({ state: 'visible' })
    await dialog.getByRole('button', { name: 'Reject lead' }).click()
    await page.locator(`#reject-reason-${rickId}-error`).waitFor({ state: 'visible' })
    assert.equal((await factsOf(rickId)).status, 'flagged')
    assert.deepEqual(await seriousAxeViolations(page), [])

    const reason = 'The phone number belongs to a business.'
    await dialog.getByLabel('Reason (required)').fill(reason)
    await dialog.getByRole('button', { name: 'Reject lead' }).click()
    await expectText(page, '.p-toast-message', 'Lead rejected', { contains: true })
    await page.locator(`tr:has-text("${rick}")`).waitFor({ state: 'detached' })
    const facts = await factsOf(rickId)
    assert.equal(facts.status, 'rejected')
    assert.include(facts.reason_codes, 'review_rejected')
    assert.include((await trailOf(rickId)).at(-1), {
      actor: `operator:${operator.id}`,
      status_to: 'rejected',
    })

    await openPage(page, `/operator/leads/${rickId}`)
    await expectText(page, '[data-test="lead-status"]', 'rejected')
    await expectText(page, '[data-test="reasons"]', 'Rejected on review', { contains: true })
    await expectText(page, '[data-test="reason-message"]', reason)
  })

  test('a lead that is no longer flagged is refused, and a read-only operator gets no buttons', async ({
    browserContext,
    client,
    assert,
  }) => {
    const operator = await createOperator()
    const world = await flaggingPublisher()
    const queue = queueFromNow()
    const name = `Nora ${unique('twice')}`
    const leadId = await flaggedLead(client, world, name)

    const page = await browserContext.newPage()
    await signInAs(page, operator.email)
    await openPage(page, queue)
    // Someone else decides first (the API): the queue still shows the lead; approving it is refused.
    const other = await operatorKey()
    await client
      .post(`/v1/leads/${leadId}/review`)
      .bearerToken(other)
      .json({ decision: 'approve' })
      .then((response) => response.assertStatus(200))
    await page.locator(`tr:has-text("${name}") [data-test="approve"]`).click()
    await page.getByRole('button', { name: 'Approve lead' }).click()
    await expectText(page, '.p-toast-message', 'Only a flagged lead is reviewed', {
      contains: true,
    })
    assert.lengthOf(
      (await trailOf(leadId)).filter((entry) => entry.status_to === 'accepted'),
      1
    )

    // An operator user without "submit" reads the queue but may not decide.
    const held = `Hugo ${unique('held')}`
    await flaggedLead(client, world, held)
    const reader = await createPortalUser('operator_admin')
    const readerPage = await browserContext
      .browser()!
      .newContext({ baseURL: new URL(page.url()).origin })
    const second = await readerPage.newPage()
    await signInAs(second, reader.email)
    await openPage(second, queue)
    await expectText(second, '[data-test="lead-link"]', held)
    assert.equal(await second.locator('[data-test="approve"]').count(), 0)
    await readerPage.close()
  })
})
