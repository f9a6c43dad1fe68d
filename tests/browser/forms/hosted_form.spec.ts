import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import formsConfig from '#config/forms'
import Label from '#models/label'
import TenancyService from '#services/platform/tenancy_service'
import { embedSnippet } from '#services/forms/form_embedding'
import { createPublisher, unique } from '#tests/support/fixtures'
import { createForm } from '#tests/support/forms'
import { pageWidth, seriousAxeViolations } from '#tests/browser/helpers'

async function leadsOf(publisher: { schemaName: string }) {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run(publisher, (trx) => trx.from('leads').orderBy('created_at'))
}

/** Someone else's web site, on another origin (127.0.0.1, the app is on localhost): one page embedding the snippet. */
async function siteServing(html: string) {
  const server = createServer((_, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8')
    response.end(
      `<!DOCTYPE html><html lang="en"><head><title>Site</title></head><body><h1>Solar deals</h1>${html}</body></html>`
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

async function livePublisherWithLabel() {
  const label = await Label.create({
    slug: unique('label'),
    name: 'Zonnig',
    branding: { primary_color: '#f5c400' },
    locale: 'nl',
  })
  const publisher = await createPublisher({ label: label.slug })
  publisher.status = 'live'
  await publisher.save()
  return publisher
}

test.group('Forms / the consumer', (group) => {
  let minFillMs = formsConfig.minFillMs
  group.setup(() => {
    minFillMs = formsConfig.minFillMs
    formsConfig.minFillMs = 0
    formsConfig.rateLimit.requests = 10_000
    return () => {
      formsConfig.minFillMs = minFillMs
    }
  })

  test('a consumer fills the form on a phone: errors next to their field, then a lead', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await livePublisherWithLabel()
    const form = await createForm(publisher)
    const page = await browserContext.newPage()
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/f/${form.slug}`)

    assert.deepEqual(await seriousAxeViolations(page), [])
    assert.isAtMost(await pageWidth(page), 390)
    await page.getByLabel('Your name').fill('Anna de Vries')
    await page.getByLabel('E-mail').fill('anna@example')
    await page.getByLabel('Phone').fill('0612345678')
    await page.getByLabel('Postal code').fill('1012 AB')
    await page.getByRole('button', { name: 'Versturen' }).click()

    // Back with what to fix, focus on the summary, each error next to its field.
    const summary = page.locator('[data-error-summary]')
    await summary.waitFor()
    assert.isTrue(
      await summary.evaluate((element) => element === element.ownerDocument.activeElement)
    )
    assert.equal(
      await page.locator('#field-email-error').innerText(),
      'Vul een e-mailadres in zoals naam@voorbeeld.nl.'
    )
    assert.equal(await page.getByLabel('Your name').inputValue(), 'Anna de Vries')
    assert.deepEqual(await seriousAxeViolations(page), [])
    assert.lengthOf(await leadsOf(publisher), 0)

    await page.getByLabel('E-mail').fill('anna@example.nl')
    await page.getByLabel(form.consentVersion.text).check()
    await page.getByRole('button', { name: 'Versturen' }).click()
    await page.getByRole('heading', { name: 'Dank u wel' }).waitFor()

    const [lead] = await leadsOf(publisher)
    assert.equal(lead.status, 'accepted')
    assert.equal(lead.contact.email, 'anna@example.nl')
    assert.equal(lead.channel, 'form')
  })

  test('embedded on another origin: it resizes, records the embedding page, and refuses origins not allowed', async ({
    browserContext,
    assert,
  }) => {
    const publisher = await livePublisherWithLabel()
    const placeholder = await createForm(publisher)
    let allowed: { server: Server; origin: string } | undefined
    let other: { server: Server; origin: string } | undefined
    try {
      // The site must exist before the form can allow its origin; the page it serves is read per request.
      let html = ''
      allowed = await siteServing('')
      allowed.server.removeAllListeners('request')
      allowed.server.on('request', (_, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8')
        response.end(
          `<!DOCTYPE html><html lang="en"><head><title>Site</title></head><body><h1>Solar deals</h1>${html}</body></html>`
        )
      })
      const form = await createForm(publisher, { embed_origins: [allowed.origin] })
      html = embedSnippet(form)

      const page = await browserContext.newPage()
      await page.goto(`${allowed.origin}/offers?utm_source=partner-site&utm_campaign=autumn`)
      const frame = page.frameLocator('iframe')
      await frame.getByRole('heading', { name: form.title }).waitFor()
      // The frame grew to its content through postMessage, past the snippet's 420 px minimum.
      await page.waitForFunction(
        'document.querySelector("iframe").getBoundingClientRect().height > 500'
      )

      await frame.getByLabel('Your name').fill('Piet Bakker')
      await frame.getByLabel('E-mail').fill('piet@example.nl')
      await frame.getByLabel('Phone').fill('0612345679')
      await frame.getByLabel('Postal code').fill('1012 AB')
      await frame.getByLabel(form.consentVersion.text).check()
      await frame.getByRole('button', { name: 'Versturen' }).click()
      await frame.getByRole('heading', { name: 'Dank u wel' }).waitFor()

      const [lead] = await leadsOf(publisher)
      assert.deepEqual(lead.provenance, {
        source: 'partner-site',
        campaign: 'autumn',
        landing_page: `${allowed.origin}/offers?utm_source=partner-site&utm_campaign=autumn`,
      })

      // A site whose origin the form does not list gets no form in its frame.
      other = await siteServing(embedSnippet(placeholder))
      const refused = await browserContext.newPage()
      await refused.goto(other.origin)
      // Chromium replaces a frame its ancestors may not hold with its error page.
      await refused.waitForFunction('document.querySelector("iframe") !== null')
      let blocked = false
      for (let tries = 0; tries < 50 && !blocked; tries++) {
        blocked = refused.frames().some((each) => each.url().startsWith('chrome-error:'))
        if (!blocked) await refused.waitForTimeout(100)
      }
      assert.isTrue(
        blocked,
        refused
          .frames()
          .map((each) => each.url())
          .join(', ')
      )
      assert.equal(await refused.frameLocator('iframe').locator('form').count(), 0)
    } finally {
      allowed?.server.close()
      other?.server.close()
    }
  })
})
