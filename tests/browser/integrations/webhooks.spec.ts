import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { Webhook } from 'standardwebhooks'
import WebhookDelivery from '#models/webhook_delivery'
import WebhookEndpoint from '#models/webhook_endpoint'
import WebhookRecovery from '#models/webhook_recovery'
import { createBuyer, leadBody, livePublisher, operatorKey } from '#tests/support/fixtures'
import { Receiver, compressWebhookClock, eventually, startRuntime } from '#tests/support/webhooks'
import { createOperator, createPortalUser, expectText, pageText } from '#tests/browser/helpers'
import {
  assertAccessibleAtPhoneWidth,
  openAs,
  publisherUser,
} from '#tests/browser/integrations/helpers'

/** Fills "Add a webhook endpoint": URL, the owner (operator only) and the events. */
async function addEndpoint(
  page: Page,
  options: { url: string; events: string[]; owner?: string; description?: string }
) {
  await page.locator('[data-test="add-endpoint"]').click()
  const form = page.locator('[data-test="new-endpoint-form"]')
  await form.getByLabel('URL').fill(options.url)
  if (options.owner) {
    await form.locator('[data-test="endpoint-owner"]').click()
    await page.getByRole('option', { name: options.owner, exact: true }).click()
  }
  await chooseEvents(page, form, options.events)
  if (options.description) await form.getByLabel('Description (optional)').fill(options.description)
  await form.getByRole('button', { name: 'Add endpoint' }).click()
}

async function chooseEvents(page: Page, form: ReturnType<Page['locator']>, events: string[]) {
  await form.locator('[data-test="endpoint-events"]').click()
  for (const type of events) {
    await page.getByRole('option', { name: new RegExp(`^${type.replace('.', '\\.')}`) }).click()
  }
  await closeList(form)
}

/**
 * Closes the open events list with a click on its own field, sent to the field itself: Escape
 * would close the dialog, and the list, placed when it opened, may cover anything else, the
 * field too once a chosen event's chip has made the field taller and the dialog re-centred.
 */
async function closeList(form: ReturnType<Page['locator']>) {
  await form.locator('[data-test="endpoint-events"]').dispatchEvent('click')
  await form.page().locator('.p-multiselect-overlay').waitFor({ state: 'detached' })
}

/** Reloads the endpoint's page until its log shows `status` for one delivery. */
async function waitForDeliveryStatus(page: Page, status: string, attempts?: number) {
  await eventually(
    async () => {
      await page.reload()
      const row = page.locator('[data-test="deliveries"] tbody tr').first()
      const text = await row.innerText({ timeout: 2000 })
      return text.includes(status) && (attempts === undefined || text.includes(`\t${attempts}\t`))
    },
    `a ${status} delivery in the log`,
    20_000
  )
}

async function confirmDialog(page: Page, accept: string) {
  await page.locator('[role="alertdialog"]').getByRole('button', { name: accept }).click()
}

test.group('Integrations / webhook endpoints', (group) => {
  group.each.setup(() => compressWebhookClock())

  test('a publisher adds an endpoint, sees a delivery arrive, retries it, replays it and rotates the secret', async ({
    browserContext,
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key } = await livePublisher()
    const receiver = await Receiver.start()
    const runtime = await startRuntime()
    cleanup(async () => {
      await runtime.stop()
      await receiver.close()
      await WebhookEndpoint.query().where('publisher_id', publisher.id).delete()
    })
    const user = await publisherUser(publisher.id, ['read', 'submit'])

    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/webhooks')
    await expectText(page, '[data-test="empty-state"]', 'No webhook endpoints', { contains: true })
    await expectText(page, '[data-test="empty-state"]', 'lead.* events', { contains: true })
    await assertAccessibleAtPhoneWidth(page, assert)

    await addEndpoint(page, {
      url: receiver.url,
      events: ['lead.received'],
      description: 'CRM sync',
    })
    await expectText(page, '[data-test="one-time-secret"]', 'Signing secret', { contains: true })
    const secret = await page.locator('[data-test="one-time-secret-value"]').inputValue()
    assert.match(secret, /^whsec_/)
    const endpoint = await WebhookEndpoint.query().where('publisher_id', publisher.id).firstOrFail()
    assert.deepEqual(endpoint.events, ['lead.received'])
    assert.equal(endpoint.url, receiver.url)
    assert.equal(endpoint.description, 'CRM sync')
    assert.equal(endpoint.createdBy, `publisher:${user.id}`)
    await page.assertPath(`/publisher/webhooks/${endpoint.id}`)
    await expectText(page, '[data-test="empty-state"]', 'No deliveries yet', { contains: true })

    const lead = await client.post('/v1/leads').bearerToken(key).json(leadBody(publisher.slug))
    lead.assertStatus(201)
    await eventually(() => receiver.answered.length === 1, 'the lead.received delivery')
    // The secret shown once is the one that signs.
    const event = new Webhook(secret).verify(
      receiver.received[0].body,
      receiver.received[0].headers as Record<string, string>
    ) as { event_id: string; type: string }
    assert.equal(event.type, 'lead.received')

    await waitForDeliveryStatus(page, 'succeeded', 1)
    assert.equal(await page.locator('[data-test="one-time-secret"]').count(), 0)
    await expectText(page, '[data-test="delivery-type"]', 'lead.received')
    await expectText(page, '[data-test="endpoint-health"]', 'Healthy', { contains: true })
    await assertAccessibleAtPhoneWidth(page, assert)

    await page.locator('[data-test="retry"]').click()
    await expectText(page, '.p-toast', 'Delivery queued to send again', { contains: true })
    await eventually(() => receiver.answered.length === 2, 'the retried delivery')
    assert.equal(receiver.answered[1].json.event_id, event.event_id)
    await waitForDeliveryStatus(page, 'succeeded', 2)
    const delivery = await WebhookDelivery.query().where('endpoint_id', endpoint.id).firstOrFail()
    assert.equal(delivery.attemptCount, 2)

    await page.locator('[data-test="replay"]').click()
    await confirmDialog(page, 'Replay')
    await expectText(page, '.p-toast', 'Event replayed to 1 endpoint', { contains: true })
    await eventually(() => receiver.answered.length === 3, 'the replayed event')
    assert.equal(receiver.answered[2].json.event_id, event.event_id)

    await page.locator('[data-test="rotate-secret"]').click()
    await confirmDialog(page, 'Rotate secret')
    await expectText(page, '[data-test="one-time-secret"]', 'New signing secret', {
      contains: true,
    })
    const rotated = await page.locator('[data-test="one-time-secret-value"]').inputValue()
    assert.match(rotated, /^whsec_/)
    assert.notEqual(rotated, secret)
    await expectText(page, '[data-test="previous-secret"]', 'also signs until', {
      contains: true,
    })
    await endpoint.refresh()
    const overlapHours = endpoint.previousSecretExpiresAt!.diffNow('hours').hours
    assert.isAbove(overlapHours, 23.9)
    assert.isAtMost(overlapHours, 24)

    // A window that ends before it starts is refused next to "Until", and nothing is queued.
    const recover = page.locator('[data-test="recover-form"]')
    await page.locator('#recover-since').fill('01/02/2026 09:30 AM')
    await page.locator('#recover-until').fill('01/01/2026 09:30 AM')
    await page.keyboard.press('Escape')
    await recover.getByRole('button', { name: 'Recover window' }).click()
    await expectText(page, '#recover-until-error', '"until" must be later than "since".')
    assert.lengthOf(await WebhookRecovery.query().where('endpoint_id', endpoint.id), 0)

    await page.locator('#recover-until').fill('01/03/2026 09:30 AM')
    await page.keyboard.press('Escape')
    await recover.getByRole('button', { name: 'Recover window' }).click()
    await expectText(page, '.p-toast', 'Recovery queued', { contains: true })
    const [task] = await WebhookRecovery.query().where('endpoint_id', endpoint.id)
    assert.equal(task.kind, 'recover')
    assert.equal(task.requestedBy, `publisher:${user.id}`)
    // The picker reads the reader's own time zone; the task holds the instants in UTC.
    assert.deepEqual(task.filter, {
      since: await page.evaluate('new Date(2026, 0, 2, 9, 30).toISOString()'),
      until: await page.evaluate('new Date(2026, 0, 3, 9, 30).toISOString()'),
    })
  })

  test('a publisher edits, disables, enables and deletes its endpoint; a private URL is refused at its field', async ({
    browserContext,
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const created = await client
      .post('/v1/webhook-endpoints')
      .bearerToken(key)
      .json({ url: 'http://127.0.0.1:9/hooks', events: ['lead.received'] })
    created.assertStatus(201)
    const endpoint = await WebhookEndpoint.findOrFail(created.body().id)
    const user = await publisherUser(publisher.id, ['read', 'submit'])
    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/webhooks')
    await expectText(page, '[data-test="endpoint-url"]', 'http://127.0.0.1:9/hooks')
    await assertAccessibleAtPhoneWidth(page, assert)

    await page.locator('[data-test="endpoint-url"]').click()
    await page.assertPath(`/publisher/webhooks/${endpoint.id}`)

    await page.locator('[data-test="edit-endpoint"]').click()
    const form = page.locator('[data-test="edit-endpoint-form"]')
    await form.getByLabel('URL').fill('http://10.0.0.5/hooks')
    await form.getByRole('button', { name: 'Save' }).click()
    await expectText(page, '#edit-endpoint-url-error', 'only reach public addresses', {
      contains: true,
    })
    await endpoint.refresh()
    assert.equal(endpoint.url, 'http://127.0.0.1:9/hooks')

    await form.getByLabel('URL').fill('http://127.0.0.1:9/other')
    await chooseEvents(page, form, ['consent.recorded'])
    await form.getByRole('button', { name: 'Save' }).click()
    await expectText(page, '.p-toast', 'Endpoint saved', { contains: true })
    await endpoint.refresh()
    assert.equal(endpoint.url, 'http://127.0.0.1:9/other')
    assert.sameMembers(endpoint.events, ['lead.received', 'consent.recorded'])

    await page.locator('[data-test="disable-endpoint"]').click()
    await confirmDialog(page, 'Disable')
    await expectText(page, '[data-test="endpoint-health"]', 'Disabled: disabled by hand', {
      contains: true,
    })
    await endpoint.refresh()
    assert.equal(endpoint.status, 'disabled')
    assert.equal(endpoint.disabledReason, 'manual')

    await page.locator('[data-test="enable-endpoint"]').click()
    await expectText(page, '.p-toast', 'Endpoint enabled', { contains: true })
    await endpoint.refresh()
    assert.equal(endpoint.status, 'enabled')

    await page.locator('[data-test="delete-endpoint"]').click()
    await confirmDialog(page, 'Delete endpoint')
    await page.waitForURL('**/publisher/webhooks')
    await expectText(page, '[data-test="empty-state"]', 'No webhook endpoints', { contains: true })
    assert.isNull(await WebhookEndpoint.find(endpoint.id))
  })

  test("the operator adds a buyer's endpoint, offered only the buyer's events", async ({
    browserContext,
    assert,
  }) => {
    const operator = await createOperator()
    const buyer = await createBuyer()
    const page = await browserContext.newPage()
    await openAs(page, operator.email, '/operator/webhooks')

    await page.locator('[data-test="add-endpoint"]').click()
    const form = page.locator('[data-test="new-endpoint-form"]')
    await form.locator('[data-test="endpoint-owner"]').click()
    await page.getByRole('option', { name: buyer.name, exact: true }).click()
    await form.locator('[data-test="endpoint-events"]').click()
    const offered = await page.getByRole('option').allInnerTexts()
    assert.isTrue(offered.some((text) => text.startsWith('match.found')))
    assert.isFalse(offered.some((text) => text.startsWith('lead.received')))
    await page.getByRole('option', { name: /^match\.found/ }).click()
    await closeList(form)
    await form.getByLabel('URL').fill('http://127.0.0.1:9/buyer-hooks')
    await form.getByRole('button', { name: 'Add endpoint' }).click()

    await expectText(page, '[data-test="endpoint-owner-name"]', buyer.name)
    const endpoint = await WebhookEndpoint.query().where('buyer_id', buyer.id).firstOrFail()
    assert.equal(endpoint.ownerType, 'buyer')
    assert.deepEqual(endpoint.events, ['match.found'])
    assert.equal(endpoint.createdBy, `operator:${operator.id}`)
    await endpoint.delete()
  })

  test("another owner's endpoint answers 404, and a buyer lists only its own", async ({
    browserContext,
    client,
    assert,
  }) => {
    const [mine, theirs] = [await livePublisher(), await livePublisher()]
    const endpointOf = async (secret: string, url: string, events = ['lead.received']) => {
      const response = await client
        .post('/v1/webhook-endpoints')
        .bearerToken(secret)
        .json({ url, events })
      response.assertStatus(201)
      return response.body().id as string
    }
    await endpointOf(mine.key, 'http://127.0.0.1:9/mine')
    const foreign = await endpointOf(theirs.key, 'http://127.0.0.1:9/theirs')
    const user = await publisherUser(mine.publisher.id, ['read', 'submit'])

    const page = await browserContext.newPage()
    await openAs(page, user.email, '/publisher/webhooks')
    assert.notInclude(await pageText(page), '/theirs')
    assert.equal((await page.goto(`/publisher/webhooks/${foreign}`))!.status(), 404)
    assert.equal((await page.goto('/publisher/webhooks/not-an-id'))!.status(), 404)
    assert.equal((await page.goto(`/buyer/webhooks/${foreign}`))!.status(), 404)

    const [buyer, otherBuyer] = [await createBuyer(), await createBuyer()]
    const operator = await operatorKey()
    const forBuyer = async (buyerId: string, path: string) => {
      const response = await client
        .post('/v1/webhook-endpoints')
        .bearerToken(operator)
        .json({ url: `http://127.0.0.1:9/${path}`, events: ['match.found'], buyer_id: buyerId })
      response.assertStatus(201)
      return response.body().id as string
    }
    const own = await forBuyer(buyer.id, 'buyer-own')
    const others = await forBuyer(otherBuyer.id, 'buyer-other')
    const buyerUser = await createPortalUser('buyer_user', { buyerId: buyer.id })
    const buyerPage = await browserContext.browser()!.newPage({
      baseURL: new URL(page.url()).origin,
    })
    await openAs(buyerPage, buyerUser.email, '/buyer/webhooks')
    await expectText(buyerPage, '[data-test="endpoint-url"]', 'http://127.0.0.1:9/buyer-own')
    assert.notInclude(await pageText(buyerPage), 'buyer-other')
    // A buyer user reads (its only permission here): no way to add or change an endpoint.
    assert.equal(await buyerPage.locator('[data-test="add-endpoint"]').count(), 0)
    assert.equal((await buyerPage.goto(`/buyer/webhooks/${others}`))!.status(), 404)
    assert.equal((await buyerPage.goto(`/buyer/webhooks/${own}`))!.status(), 200)
    assert.equal(await buyerPage.locator('[data-test="rotate-secret"]').count(), 0)
    await assertAccessibleAtPhoneWidth(buyerPage, assert)
    await buyerPage.close()

    await WebhookEndpoint.query().whereIn('id', [own, others, foreign]).delete()
    await WebhookEndpoint.query().where('publisher_id', mine.publisher.id).delete()
  })
})
