import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { principalForUser } from '#auth/portal_principal'
import ReportService from '#services/reports/report_service'
import LeadService from '#services/leads/lead_service'
import AuditLogPolicy from '#policies/audit_log_policy'
import WebhookEndpointPolicy from '#policies/webhook_endpoint_policy'
import ReportPolicy from '#policies/report_policy'
import { createBuyer, createKey, createLabel, operatorKey, unique } from '#tests/support/fixtures'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'
import { soldLead } from '#tests/support/money'

/** Two sold leads of two publishers (under one label) and two buyers; the second publisher also sold a lead. */
async function twoWorlds(client: any) {
  const label = await createLabel()
  const a = await soldLead(client, { priceCents: 4100, payoutCents: 2900, label })
  const b = await soldLead(client, { priceCents: 3700, payoutCents: 2100 })
  return { label, a, b, operator: await operatorKey() }
}

const kpis = (client: any, key: string, qs: Record<string, string> = {}) =>
  client
    .get('/v1/reports/kpis')
    .qs({ period: 'today', ...qs })
    .bearerToken(key)

test.group('Reports / who sees what', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('a publisher reads its own figures with its payout, never revenue, price or margin', async ({
    client,
    assert,
  }) => {
    const { a, b, label } = await twoWorlds(client)
    const own = await kpis(client, a.key, { group_by: 'publisher' })
    own.assertStatus(200)
    assert.deepEqual(
      own.body().rows.map((row: any) => row.key),
      [a.publisher.id]
    )
    assert.equal(own.body().totals.volume, 1)
    assert.equal(own.body().totals.payout_cents, 2900)
    for (const word of ['revenue_cents', 'margin_cents', 'price_cents', '4100', '1200']) {
      assert.notInclude(own.text(), word)
    }
    // Another publisher, another label, a buyer: 404 or refused, never figures.
    await (await kpis(client, a.key, { publisher: b.publisher.id })).assertStatus(404)
    await (await kpis(client, a.key, { publisher: b.publisher.slug })).assertStatus(404)
    await (await kpis(client, a.key, { label: (await createLabel()).slug })).assertStatus(404)
    await (await kpis(client, a.key, { label: label.slug })).assertStatus(200)
    await (await kpis(client, a.key, { buyer: a.buyer.id })).assertStatus(403)
    await (await kpis(client, a.key, { group_by: 'buyer' })).assertStatus(403)
    const series = await client
      .get('/v1/reports/timeseries')
      .qs({ metric: 'revenue_cents', period: 'today' })
      .bearerToken(a.key)
    series.assertStatus(403)
    const csv = await kpis(client, a.key, { format: 'csv' })
    csv.assertStatus(200)
    assert.notInclude(csv.text(), 'revenue_cents')
    assert.include(csv.text(), 'payout_cents')
  })

  test('a buyer reads its purchases with their price, never payout, margin or publishers', async ({
    client,
    assert,
  }) => {
    const { a, b } = await twoWorlds(client)
    const own = await kpis(client, a.buyerKey, { group_by: 'buyer' })
    own.assertStatus(200)
    assert.deepEqual(
      own.body().rows.map((row: any) => [row.key, row.volume, row.revenue_cents]),
      [[a.buyer.id, 1, 4100]]
    )
    for (const word of ['payout_cents', 'margin_cents', a.publisher.id, a.publisher.slug]) {
      assert.notInclude(own.text(), word)
    }
    await (await kpis(client, a.buyerKey, { buyer: b.buyer.id })).assertStatus(404)
    await (await kpis(client, a.buyerKey, { buyer: a.buyer.id })).assertStatus(200)
    await (await kpis(client, a.buyerKey, { publisher: a.publisher.id })).assertStatus(403)
    await (await kpis(client, a.buyerKey, { group_by: 'publisher' })).assertStatus(403)
  })

  test('the operator reads everything; what does not exist answers 404, bad input 422', async ({
    client,
    assert,
  }) => {
    const { a, b, operator } = await twoWorlds(client)
    const all = await kpis(client, operator, {
      group_by: 'publisher',
      publisher: `${a.publisher.slug},${b.publisher.id}`,
    })
    all.assertStatus(200)
    const rows = all.body().rows
    assert.sameMembers(
      rows.map((row: any) => row.key),
      [a.publisher.id, b.publisher.id]
    )
    const rowA = rows.find((row: any) => row.key === a.publisher.id)
    assert.include(rowA, {
      revenue_cents: 4100,
      payout_cents: 2900,
      margin_cents: 1200,
      currency: 'EUR',
    })
    assert.equal(all.body().totals.margin_cents, 1200 + 1600)
    await (
      await kpis(client, operator, { buyer: '00000000-0000-4000-8000-000000000000' })
    ).assertStatus(404)
    await (await kpis(client, operator, { publisher: 'no-such-publisher' })).assertStatus(404)
    const invalid: Record<string, string>[] = [
      { from: 'yesterday-ish' },
      { from: '2026-03-02', to: '2026-03-01' },
      { group_by: 'country' },
      { channel: 'fax' },
      { time_zone: 'Mars/Olympus' },
      { period: 'forever' },
      { surprise: '1' },
      { publisher: "x' OR 1=1 --" },
      { from: '2026-02-30' },
    ]
    for (const bad of invalid) {
      const response = await kpis(client, operator, bad)
      response.assertStatus(422)
      assert.include(String(response.header('content-type')), 'application/problem+json')
    }
    const series = await client
      .get('/v1/reports/timeseries')
      .qs({ metric: 'volume', interval: 'hour', from: '2024-01-01', to: '2026-01-01' })
      .bearerToken(operator)
    series.assertStatus(422)
  })

  test('KPIs and time series as CSV, formula-looking cells escaped', async ({ client, assert }) => {
    const { a, operator } = await twoWorlds(client)
    await db
      .from('buyers')
      .where('id', a.buyer.id)
      .update({ name: '=HYPERLINK("http://evil.example")' })
    const response = await client
      .get('/v1/reports/kpis')
      .qs({ period: 'today', group_by: 'buyer', buyer: a.buyer.id })
      .header('accept', 'text/csv')
      .bearerToken(operator)
    response.assertStatus(200)
    assert.include(String(response.header('content-type')), 'text/csv')
    const lines = response.text().trim().split('\n')
    assert.match(lines[0], /^key,name,period_from,period_to,volume,/)
    assert.lengthOf(lines, 3)
    assert.match(lines[1], /^total,,/)
    assert.include(lines[2], `${a.buyer.id},"'=HYPERLINK(""http://evil.example"")"`)
    const series = await client
      .get('/v1/reports/timeseries')
      .qs({
        period: 'today',
        metric: 'revenue_cents',
        interval: 'hour',
        format: 'csv',
        buyer: a.buyer.id,
      })
      .bearerToken(operator)
    series.assertStatus(200)
    const points = series.text().trim().split('\n')
    assert.equal(points[0], 'at,value,previous')
    assert.lengthOf(points, 25)
    assert.equal(
      points.slice(1).reduce((sum, line) => sum + Number(line.split(',')[1] || 0), 0),
      4100
    )
  })

  test('GET /v1/leads?format=csv streams the visible fields of the visible leads', async ({
    client,
    assert,
  }) => {
    const { a, b, operator } = await twoWorlds(client)
    const own = await client.get('/v1/leads').qs({ format: 'csv' }).bearerToken(a.key)
    own.assertStatus(200)
    assert.include(String(own.header('content-type')), 'text/csv')
    const [header, ...rows] = own.text().trim().split('\n')
    assert.include(header, 'payout_cents')
    assert.notInclude(header, 'price_cents')
    assert.notInclude(header, 'buyer_id')
    assert.lengthOf(rows, 1)
    assert.include(rows[0], a.leadId)
    assert.notInclude(own.text(), b.leadId)

    const bought = await client.get('/v1/leads').qs({ format: 'csv' }).bearerToken(a.buyerKey)
    const buyerHeader = bought.text().split('\n')[0]
    assert.include(buyerHeader, 'price_cents')
    assert.notInclude(buyerHeader, 'payout_cents')
    assert.notInclude(bought.text(), a.publisher.slug)

    const all = await client
      .get('/v1/leads')
      .qs({ format: 'csv', publisher: b.publisher.slug })
      .bearerToken(operator)
    assert.include(all.text().split('\n')[0], 'price_cents')
    assert.include(all.text(), b.leadId)
    assert.notInclude(all.text(), a.leadId)
    const refused = await client
      .get('/v1/leads')
      .qs({ format: 'csv', buyer_id: a.buyer.id })
      .bearerToken(a.key)
    refused.assertStatus(403)
  })

  test('a formula in a lead is escaped in its CSV', async ({ client, assert }) => {
    const sold = await soldLead(client, {
      contact: { name: '=cmd|calc!A1', email: 'x@example.nl' },
    })
    const csv = await client.get('/v1/leads').qs({ format: 'csv' }).bearerToken(sold.key)
    assert.include(csv.text(), `'=cmd|calc!A1`)
  })

  test('a label manager is invited for a label and reads its publishers only', async ({
    client,
    assert,
  }) => {
    const { a, b, label, operator } = await twoWorlds(client)
    const email = `${unique('manager')}@label.example`
    const created = await client
      .post('/v1/users')
      .bearerToken(operator)
      .json({ email, role: 'label_manager', label: label.slug })
    created.assertStatus(201)
    assert.include(created.body(), { role: 'label_manager', label_id: label.id })
    assert.deepEqual(created.body().permissions, ['read'])
    const missing = await client
      .post('/v1/users')
      .bearerToken(operator)
      .json({ email: `${unique('m')}@label.example`, role: 'label_manager' })
    missing.assertStatus(422)

    const principal = principalForUser(await User.findByOrFail('email', email))
    assert.equal(principal.kind, 'label_manager')
    assert.equal(principal.labelId, label.id)
    const reports = await app.container.make(ReportService)
    const report = await reports.kpis(
      principal,
      await reports.kpiQuery(principal, { period: 'today', group_by: 'publisher' })
    )
    assert.deepEqual(
      report.rows.map((row) => row.key),
      [a.publisher.id]
    )
    assert.notProperty(report.totals, 'revenue_cents')
    assert.notProperty(report.totals, 'margin_cents')
    assert.equal(report.totals.payout_cents, 2900)
    await assert.rejects(() =>
      reports
        .kpiQuery(principal, { publisher: [b.publisher.slug] })
        .then((q) => reports.kpis(principal, q))
    )
    const leads = await (await app.container.make(LeadService)).list(principal, {})
    assert.deepEqual(
      leads.data.map((lead: any) => lead.id),
      [a.leadId]
    )
    assert.notProperty(leads.data[0], 'price_cents')
    // It reads reports and leads, and nothing else: not the evidence tier, not webhooks.
    assert.isTrue(new ReportPolicy().view(principal))
    assert.notEqual(new AuditLogPolicy().view(principal), true)
    assert.notEqual(new WebhookEndpointPolicy().viewList(principal), true)
    // A label manager's key does not exist: an API key of a buyer cannot read the label either.
    const { secret } = await createKey({ buyerId: (await createBuyer()).id, permissions: ['read'] })
    await (await kpis(client, secret, { label: label.slug })).assertStatus(403)
  })
})
