import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import formsConfig from '#config/forms'
import Label from '#models/label'
import TenancyService from '#services/platform/tenancy_service'
import { withLimiter } from '#services/access/limiter_store'
import { createPublisher, livePublisher, unique } from '#tests/support/fixtures'
import { CONSENT, answers, createForm, tokenIn } from '#tests/support/forms'

async function leadsOf(publisher: { schemaName: string }) {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run(publisher, (trx) => trx.from('leads').orderBy('created_at'))
}

async function funnel(formId: string) {
  const row = await db.from('form_counters').where('form_id', formId).first()
  return row
    ? { views: row.views, starts: row.starts, submissions: row.submissions, blocked: row.blocked }
    : null
}

/** A consumer's visit: the page served, then sent with these answers and the page's token. */
async function send(client: ApiClient, slug: string, body: Record<string, string>) {
  const page = await client.get(`/f/${slug}`)
  return client
    .post(`/f/${slug}`)
    .form({ ...body, form_token: tokenIn(page.text()) })
    .redirects(0)
}

const settings = { ...formsConfig, rateLimit: { ...formsConfig.rateLimit } }

test.group('Forms / hosted page', (group) => {
  group.each.setup(async () => {
    formsConfig.minFillMs = 0
    formsConfig.rateLimit.requests = 10_000
    await withLimiter(formsConfig.rateLimit, (limiter) => limiter.delete('form:127.0.0.1'))
    return () => {
      formsConfig.minFillMs = settings.minFillMs
      formsConfig.rateLimit.requests = settings.rateLimit.requests
    }
  })

  test('the page is branded, in the label language, small, framable only by the allowed origins', async ({
    client,
    assert,
  }) => {
    const label = await Label.create({
      slug: unique('label'),
      name: 'Sonne & Co',
      branding: { primary_color: '#ffcc00', logo_url: 'https://cdn.example/sonne.svg' },
      locale: 'de',
    })
    const publisher = await createPublisher({ label: label.slug })
    publisher.status = 'live'
    await publisher.save()
    const form = await createForm(publisher)

    const response = await client.get(`/f/${form.slug}`)
    response.assertStatus(200)
    const html = response.text()
    assert.include(html, '<html lang="de">')
    assert.include(html, 'Absenden')
    assert.include(html, 'src="https://cdn.example/sonne.svg" alt="Sonne &amp; Co"')
    assert.include(html, 'Your name')
    assert.include(html, CONSENT)
    assert.include(html, 'autocomplete="email"')
    assert.isBelow(Buffer.byteLength(html), 50_000)
    const policy = response.header('content-security-policy')
    assert.include(policy, "frame-ancestors 'self' https://site.example")
    assert.notInclude(policy, 'unsafe-inline')
    assert.isUndefined(response.header('x-frame-options'))
    assert.equal(response.header('cache-control'), 'no-store')
    assert.deepEqual(await funnel(form.id), { views: 1, starts: 0, submissions: 0, blocked: 0 })
    // The portal's preview is not a consumer's view.
    ;(await client.get(`/f/${form.slug}?preview=1`)).assertStatus(200)
    assert.equal((await funnel(form.id))!.views, 1)
  })

  test('a submission is a lead: channel form, server-side consent wording, time and address, provenance, audit actor', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const form = await createForm(publisher)
    const page = await client.get(
      `/f/${form.slug}?utm_source=newsletter&utm_campaign=spring&page=${encodeURIComponent('https://site.example/offer?x=1')}`
    )
    const response = await client
      .post(`/f/${form.slug}`)
      .form({ ...answers(), form_token: tokenIn(page.text()), consent_text: 'forged wording' })
      .redirects(0)

    response.assertStatus(303)
    assert.equal(response.header('location'), `/f/${form.slug}/thanks`)
    const [lead] = await leadsOf(publisher)
    assert.equal(lead.channel, 'form')
    assert.equal(lead.status, 'accepted')
    assert.equal(lead.environment, 'live')
    assert.equal(lead.consent.text, CONSENT)
    assert.equal(lead.consent.version_id, form.consentVersionId)
    assert.equal(lead.consent.ip, '127.0.0.1')
    assert.isBelow(Math.abs(Date.parse(lead.consent.timestamp) - Date.now()), 10_000)
    assert.deepEqual(lead.provenance, {
      source: 'newsletter',
      campaign: 'spring',
      landing_page: 'https://site.example/offer?x=1',
    })
    assert.equal(lead.attributes.roof, 'flat')
    assert.equal(lead.contact.phone.slice(0, 3), '+31')

    const entries = await db.from('audit.entries').where('lead_id', lead.id).orderBy('lead_seq')
    assert.equal(entries[0].actor, `form:${form.id}`)
    const evidence = await db.from('audit.consent_evidence').where('lead_id', lead.id).firstOrFail()
    assert.equal(evidence.method, 'form_submit')
    // The evidence keeps the page, not its query: a query may carry the applicant's data.
    assert.equal(evidence.page_url, 'https://site.example/offer')
    const fact = await db.from('lead_facts').where('lead_id', lead.id).firstOrFail()
    assert.equal(fact.channel, 'form')
    assert.deepEqual(await funnel(form.id), { views: 1, starts: 1, submissions: 1, blocked: 0 })

    const thanks = await client.get(`/f/${form.slug}/thanks`)
    thanks.assertStatus(200)
    assert.notInclude(thanks.text(), lead.id)
  })

  test('what the consumer must fix comes back next to its field, with its answers; nothing is stored', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const form = await createForm(publisher)
    const page = await client.get(`/f/${form.slug}`)
    const response = await client.post(`/f/${form.slug}`).form({
      ...answers({ email: 'not-an-address', phone: '12', consent: '', name: 'Zoë <b>' }),
      roof: 'thatched',
      form_token: tokenIn(page.text()),
    })

    response.assertStatus(422)
    const html = response.text()
    assert.include(html, 'Please correct 4 answers')
    for (const [field, message] of [
      ['email', 'Enter an e-mail address like name@example.com.'],
      ['phone', 'Enter a phone number we can call, with its area code.'],
      ['roof', 'Choose one of the options.'],
      ['consent', 'Tick the box to give your consent'],
    ]) {
      assert.match(html, new RegExp(`id="field-${field}-error">${message}`))
      assert.include(html, `aria-describedby="field-${field}-error"`)
    }
    assert.include(html, 'value="Zoë &lt;b&gt;"')
    assert.notInclude(html, 'invalid_phone')
    assert.lengthOf(await leadsOf(publisher), 0)
  })

  test('a duplicate is thanked like anyone and stored as rejected, with no reason shown', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher({
      duplicates: { window_days: 30, keys: ['contact.email'] },
    })
    const form = await createForm(publisher, { thank_you_url: 'https://site.example/thanks' })
    const consumer = answers()
    for (let time = 0; time < 2; time++) {
      const response = await send(client, form.slug, consumer)
      response.assertStatus(303)
      assert.equal(response.header('location'), 'https://site.example/thanks')
    }
    const leads = await leadsOf(publisher)
    assert.deepEqual(
      leads.map((lead) => lead.status),
      ['accepted', 'rejected']
    )
  })

  test('bots: the honeypot is thanked and kept out, a fast fill and a forged token get the form back', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const form = await createForm(publisher)

    const trapped = await send(client, form.slug, answers({ website: 'https://spam.example' }))
    trapped.assertStatus(303)

    formsConfig.minFillMs = 60_000
    const fast = await send(client, form.slug, answers())
    fast.assertStatus(422)
    assert.include(fast.text(), 'That was quick!')

    const forged = await client.post(`/f/${form.slug}`).form({ ...answers(), form_token: 'forged' })
    forged.assertStatus(422)
    assert.include(forged.text(), 'open for a long time')
    // The page it gives back carries a fresh token that works.
    formsConfig.minFillMs = 0
    const resent = await client
      .post(`/f/${form.slug}`)
      .form({ ...answers(), form_token: tokenIn(forged.text()) })
      .redirects(0)
    resent.assertStatus(303)

    assert.lengthOf(await leadsOf(publisher), 1)
    assert.equal((await funnel(form.id))!.blocked, 2)
  })

  test('one address sending too much is told to wait (429, Retry-After)', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const form = await createForm(publisher)
    formsConfig.rateLimit.requests = 1
    const first = await send(client, form.slug, answers())
    first.assertStatus(303)
    const second = await send(client, form.slug, answers())
    second.assertStatus(429)
    assert.isAbove(Number(second.header('retry-after')), 0)
    assert.include(second.text(), 'Please wait a moment')
    assert.lengthOf(await leadsOf(publisher), 1)
  })

  test('the wording of the page served is the one recorded, even after an edit', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const form = await createForm(publisher)
    const page = await client.get(`/f/${form.slug}`)
    await client
      .patch(`/v1/forms/${form.id}`)
      .bearerToken(key)
      .json({ consent_text: 'A newer wording that the consumer never saw on the page.' })
    await client
      .post(`/f/${form.slug}`)
      .form({ ...answers(), form_token: tokenIn(page.text()) })
      .redirects(0)
    const [lead] = await leadsOf(publisher)
    assert.equal(lead.consent.text, CONSENT)
    assert.equal(lead.consent.version_id, form.consentVersionId)
  })

  test('closed, unknown and not-enabled forms say so; a publisher not yet live tests in the sandbox', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const inactive = await createForm(publisher, { active: false })
    ;(await client.get(`/f/${inactive.slug}`)).assertStatus(410)
    ;(await client.post(`/f/${inactive.slug}`).form(answers())).assertStatus(410)
    ;(await client.get(`/f/${unique('nothing')}`)).assertStatus(404)

    const open = await createForm(publisher)
    publisher.deliveryMethods = ['api']
    await publisher.save()
    ;(await client.get(`/f/${open.slug}`)).assertStatus(410)

    const onboarding = await createPublisher()
    const form = await createForm(onboarding)
    ;(await send(client, form.slug, answers())).assertStatus(303)
    const [lead] = await leadsOf(onboarding)
    assert.equal(lead.environment, 'sandbox')
    assert.lengthOf(await leadsOf(publisher), 0)
  })

  test('the first keystroke counts a start once; control characters never reach the database', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const form = await createForm(publisher)
    const page = await client.get(`/f/${form.slug}`)
    const token = tokenIn(page.text())
    ;(await client.post(`/f/${form.slug}/start`).form({ form_token: token })).assertStatus(204)
    ;(await client.post(`/f/${form.slug}/start`).form({ form_token: 'forged' })).assertStatus(204)
    const response = await client
      .post(`/f/${form.slug}`)
      .form({ ...answers({ name: 'Jan\u0000 Jansen\u0007' }), form_token: token, started: 'yes' })
      .redirects(0)
    response.assertStatus(303)
    const [lead] = await leadsOf(publisher)
    assert.equal(lead.contact.name, 'Jan Jansen')
    assert.deepEqual(await funnel(form.id), { views: 1, starts: 1, submissions: 1, blocked: 0 })
  })
})
