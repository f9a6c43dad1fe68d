import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import AuditSealerService from '#services/audit/audit_sealer_service'
import { PROOF_FORMAT } from '#services/audit/audit_proof_service'
import { createBuyer, createKey, leadBody, livePublisher, unique } from '#tests/support/fixtures'
import { createOperator, createPortalUser, expectText, pageText } from '#tests/browser/helpers'
import {
  acceptedLead,
  createRule,
  disableUnscopedRules,
  route,
  routingPublisher,
} from '#tests/functional/routing/routing_support'
import {
  assertAccessibleAndNarrow,
  deliver,
  openPage,
  signInAs,
  trailOf,
} from '#tests/browser/leads/leads_support'

const CONSENT_TEXT = leadBody('any').consent.text
const BUYER_HOOK = 'https://crm.buyer.example/hooks/leads'
const PUBLISHER_HOOK = 'https://sync.publisher.example/hooks/leads'

type Client = Parameters<typeof acceptedLead>[0]

/** A webhook endpoint of the key's owner (its deliveries stay pending: nobody runs the relay here). */
async function endpoint(client: Client, key: string, url: string, events: string[]) {
  const response = await client.post('/v1/webhook-endpoints').bearerToken(key).json({ url, events })
  response.assertStatus(201)
}

/** A live lead sold to a fresh buyer; both sides have a webhook endpoint for their events. */
async function soldLead(client: Client, name: string) {
  const world = await routingPublisher()
  const buyer = await createBuyer()
  await createRule({
    buyerId: buyer.id,
    publisherIds: [world.publisher.id],
    priceCents: 1500,
    payoutCents: 1000,
  })
  const buyerKey = (await createKey({ buyerId: buyer.id })).secret
  await endpoint(client, buyerKey, BUYER_HOOK, ['match.found'])
  await endpoint(client, world.key, PUBLISHER_HOOK, ['lead.received'])
  const leadId = await acceptedLead(client, world, { contact: { name } })
  const outcome = await route(leadId)
  if (outcome.outcome !== 'matched') throw new Error(`lead not sold: ${outcome.outcome}`)
  return { world, buyer, leadId }
}

test.group('Leads / a buyer reads its purchases', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('buyer reads a lead: provenance, consent and validation, never publisher or payout', async ({
    browserContext,
    client,
    assert,
  }) => {
    const name = `Bea ${unique('bought')}`
    const { world, buyer, leadId } = await soldLead(client, name)
    const unsold = await acceptedLead(client, await routingPublisher())
    const user = await createPortalUser('buyer_user', { buyerId: buyer.id })

    const page = await browserContext.newPage()
    await signInAs(page, user.email)
    // The buyer's home is its leads.
    await page.assertPath('/buyer')
    await expectText(page, '[data-test="lead-link"]', name)
    assert.lengthOf(await page.locator('[data-test="lead-link"]').all(), 1)
    for (const hidden of [world.publisher.slug, world.publisher.name]) {
      assert.notInclude(await pageText(page), hidden)
    }
    await assertAccessibleAndNarrow(page, assert)

    await page.locator('[data-test="lead-link"]').click()
    await page.waitForURL(`**/buyer/leads/${leadId}`)
    await expectText(page, '[data-test="provenance"]', 'facebook', { contains: true })
    await expectText(page, '[data-test="provenance"]', 'winter-2026', { contains: true })
    await expectText(page, '[data-test="consent-wording"]', CONSENT_TEXT)
    await expectText(page, '[data-test="consent-ip"]', '203.0.113.9')
    const digest = createHash('sha256').update(CONSENT_TEXT, 'utf8').digest('hex')
    await expectText(page, '[data-test="evidence-hash"]', digest.slice(0, 12), { contains: true })
    await expectText(page, '[data-test="quality"]', 'Valid', { contains: true })
    await expectText(page, '[data-test="routing-price"]', '15.00', { contains: true })
    // Its own endpoint's delivery of match.found; the publisher's endpoint stays out of sight.
    await expectText(page, '[data-test="deliveries"] tr', BUYER_HOOK, { contains: true })
    await expectText(page, '[data-test="deliveries"] tr', 'match.found', { contains: true })
    const text = await pageText(page)
    for (const hidden of [
      world.publisher.slug,
      world.publisher.name,
      'Payout',
      '10.00',
      PUBLISHER_HOOK,
    ]) {
      assert.notInclude(text, hidden)
    }
    await page.locator('[data-test="verify"]').click()
    await expectText(page, '[data-test="verification"]', 'Valid', { contains: true })
    await assertAccessibleAndNarrow(page, assert)

    // A lead not delivered to this buyer, its page and its proof: not found.
    for (const path of [`/buyer/leads/${unsold}`, `/buyer/leads/${unsold}/proof`]) {
      const response = await page.goto(path)
      assert.equal(response!.status(), 404, path)
      assert.notInclude(await pageText(page), 'example.nl')
    }
    // Another portal's page answers 404 to a buyer too.
    assert.equal((await page.goto(`/operator/leads/${leadId}`))!.status(), 404)
  })

  test('a buyer without leads is told where they will appear', async ({
    browserContext,
    client,
    assert,
  }) => {
    // An unsold live lead: a buyer user linked to no buyer must not see it as "no buyer's".
    await acceptedLead(client, await routingPublisher())
    for (const owner of [{ buyerId: (await createBuyer()).id }, {}]) {
      const user = await createPortalUser('buyer_user', owner)
      const page = await browserContext.newPage()
      await signInAs(page, user.email)
      await expectText(page, '[data-test="empty-state"]', 'Leads delivered to you appear here', {
        contains: true,
      })
      assert.equal(await page.locator('[data-test="lead-link"]').count(), 0)
      await assertAccessibleAndNarrow(page, assert)
      await page.getByRole('button', { name: 'Log out' }).click()
      await page.waitForURL('**/login')
    }
  })
})

test.group('Leads / a publisher reads its own', () => {
  test('publisher sees its leads with reasons, filters by reason, and no other publisher’s', async ({
    browserContext,
    client,
    assert,
  }) => {
    const world = await livePublisher()
    const good = `Gus ${unique('good')}`
    const bad = `Ben ${unique('bad')}`
    await deliver(client, world, { contact: { name: good } })
    const rejected = await deliver(client, world, { contact: { name: bad, phone: '12' } })
    assert.equal(rejected.status, 'rejected')
    const stranger = await livePublisher()
    const theirs = await deliver(client, stranger)
    const user = await createPortalUser('publisher_user', { publisherId: world.publisher.id })

    const page = await browserContext.newPage()
    await signInAs(page, user.email)
    await openPage(page, '/publisher/leads')
    await expectText(page, '[data-test="lead-link"]', good)
    await expectText(
      page,
      `tr:has-text("${bad}") [data-test="lead-reasons"]`,
      'Invalid phone number'
    )
    assert.lengthOf(await page.locator('[data-test="lead-link"]').all(), 2)
    await assertAccessibleAndNarrow(page, assert)

    // The reason filter, through its select: only the rejected lead is left, and the URL says so.
    await page.locator('[data-test="filter-reason"]').click()
    await page.getByRole('option', { name: 'Invalid phone number' }).click()
    await page.waitForURL(/reason=invalid_phone/)
    await expectText(page, '[data-test="lead-link"]', bad)
    assert.deepEqual(await page.locator('[data-test="lead-link"]').allInnerTexts(), [bad])

    await page.locator('[data-test="lead-link"]').click()
    await page.waitForURL(`**/publisher/leads/${rejected.id}`)
    await expectText(page, '[data-test="lead-status"]', 'rejected')
    await expectText(page, '[data-test="reason-message"]', 'contact.phone is not a valid', {
      contains: true,
    })
    const text = await pageText(page)
    assert.notInclude(text, 'Price')
    assert.notInclude(text, 'Buyer')
    await assertAccessibleAndNarrow(page, assert)

    // Another publisher's lead, its page and its proof: not found.
    for (const path of [`/publisher/leads/${theirs.id}`, `/publisher/leads/${theirs.id}/proof`]) {
      const response = await page.goto(path)
      assert.equal(response!.status(), 404, path)
    }
  })
})

test.group('Leads / the operator explorer', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('the operator filters every lead, sees the buyer, and downloads a proof bundle', async ({
    browserContext,
    client,
    assert,
  }) => {
    const operator = await createOperator()
    const name = `Ola ${unique('sold')}`
    const { world, buyer, leadId } = await soldLead(client, name)
    const other = await livePublisher()
    await deliver(client, other)

    const page = await browserContext.newPage()
    await signInAs(page, operator.email)
    await openPage(page, `/operator/leads?publisher=${world.publisher.slug}`)
    assert.deepEqual(await page.locator('[data-test="lead-link"]').allInnerTexts(), [name])
    await expectText(page, '[data-test="lead-buyer"]', buyer.name)
    await expectText(page, '[data-test="lead-publisher"]', world.publisher.name)
    await assertAccessibleAndNarrow(page, assert)

    // Filters that match nothing say so, and clearing them goes back to every lead.
    await openPage(page, `/operator/leads?publisher=${world.publisher.slug}&status=flagged`)
    await expectText(page, '[data-test="empty-state"] h2', 'No leads match these filters')
    await page.locator('[data-test="clear-filters"]').click()
    await page.waitForURL((url) => url.pathname === '/operator/leads' && url.search === '')
    // Input the API would refuse is refused here too, without a server error.
    const bad = await page.goto('/operator/leads?status=bogus&from=yesterday')
    assert.isBelow(bad!.status(), 500)

    await openPage(page, `/operator/leads/${leadId}`)
    await expectText(page, '[data-test="routing-buyer"]', buyer.name)
    await expectText(page, '[data-test="routing-margin"]', '5.00', { contains: true })
    await expectText(page, '[data-test="lead-publisher"]', world.publisher.slug)
    // The operator sees the deliveries to every endpoint.
    for (const hook of [BUYER_HOOK, PUBLISHER_HOOK]) {
      await expectText(page, '[data-test="deliveries"] tr', hook, { contains: true })
    }

    // Not sealed yet: back on the lead's page with a notice of when to come back, not a file.
    // (The notice arrives with a full page load, so it is read from the page's props.)
    await page.locator('[data-test="proof"]').click()
    await page.waitForFunction(
      "history.state?.page?.props?.notice?.summary?.includes('signed checkpoint')"
    )
    await page.waitForURL(`**/operator/leads/${leadId}`)

    await new AuditSealerService().sealAll()
    const download = page.waitForEvent('download')
    await page.locator('[data-test="proof"]').click()
    const file = await download
    const bundle = JSON.parse(await readFile((await file.path())!, 'utf8'))
    assert.equal(bundle.format, PROOF_FORMAT)
    assert.equal(bundle.lead_id, leadId)
    assert.lengthOf(bundle.entries, (await trailOf(leadId)).length)
    assert.equal(file.suggestedFilename(), `lead-${leadId}-proof.json`)
  })
})
