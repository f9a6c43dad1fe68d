import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Buyer from '#models/buyer'
import User from '#models/user'
import type { Permission } from '#auth/principal'
import { createBuyer, unique } from '#tests/support/fixtures'
import { PortalAgent } from '#tests/support/portal_agent'

const PASSWORD = 'a-long-enough-password'

async function agentAs(
  role: 'operator_admin' | 'buyer_user',
  buyerId: string | null,
  permissions: Permission[] = ['read', 'submit']
) {
  const user = await User.create({
    email: `${unique(role)}@portal.example`,
    password: PASSWORD,
    role,
    buyerId,
    publisherId: null,
    permissions,
  })
  const agent = new PortalAgent()
  await agent.signIn(user.email, PASSWORD)
  return agent
}

const funds = (buyerId: string) =>
  db.from('buyer_funds').where('buyer_id', buyerId).select('mode', 'currency', 'balance_cents')
const topUps = (buyerId: string) =>
  db.from('buyer_top_ups').where('buyer_id', buyerId).select('reference', 'amount_cents')

test.group('Money / buyer funds in the portals: refusals', () => {
  test('the operator’s billing and top-up forms: each refusal goes back next to its field, nothing stored', async ({
    assert,
  }) => {
    const buyer = await createBuyer()
    const agent = await agentAs('operator_admin', null)
    const page = `/operator/buyers/${buyer.id}`
    const errorsAfter = async (
      method: 'POST' | 'PATCH',
      path: string,
      body: Record<string, unknown>
    ) => {
      await agent.visit(page)
      const refused = await agent.submit(method as 'POST', path, body)
      assert.equal(refused.location, page)
      const { page: shown } = await agent.visit(page)
      return shown!.props.errors as Record<string, string[] | string>
    }

    // No billing mode yet: a top-up has nowhere to go.
    let errors = await errorsAfter('POST', `${page}/top-ups`, {
      amount_cents: 5000,
      reference: 'TRF-1',
    })
    assert.match(String(errors.amount_cents), /no billing mode/)
    assert.deepEqual(await topUps(buyer.id), [])

    // Prepaid with a credit limit is not a thing.
    errors = await errorsAfter('PATCH', page, {
      billing: { mode: 'prepaid', currency: 'EUR', credit_limit_cents: 1000 },
    })
    assert.match(String(errors['billing.credit_limit_cents']), /prepaid buyer has no credit limit/)
    assert.deepEqual(await funds(buyer.id), [])
    errors = await errorsAfter('PATCH', page, { billing: { mode: 'prepaid', currency: 'euro' } })
    assert.isDefined(errors['billing.currency'])
    assert.deepEqual(await funds(buyer.id), [])
    errors = await errorsAfter('PATCH', page, { duplicate_window_days: 400 })
    assert.property(errors, 'duplicate_window_days')
    assert.isNull((await Buyer.findOrFail(buyer.id)).duplicateWindowDays)

    await agent.visit(page)
    const set = await agent.submit('PATCH' as 'POST', page, {
      billing: { mode: 'prepaid', currency: 'EUR' },
    })
    assert.equal(set.location, page)
    const booked = await agent.submit('POST', `${page}/top-ups`, {
      amount_cents: 5000,
      reference: 'TRF-1',
    })
    assert.equal(booked.location, page)
    const { page: shown } = await agent.visit(page)
    assert.deepInclude(shown!.props.funds, {
      mode: 'prepaid',
      currency: 'EUR',
      balance_cents: 5000,
      available_cents: 5000,
    })

    errors = await errorsAfter('POST', `${page}/top-ups`, { amount_cents: 0, reference: 'TRF-2' })
    assert.property(errors, 'amount_cents')
    errors = await errorsAfter('POST', `${page}/top-ups`, {
      amount_cents: 700,
      reference: 'TRF-1',
    })
    assert.match(String(errors.reference), /TRF-1" is booked for this buyer already/)
    errors = await errorsAfter('POST', `${page}/top-ups`, {
      amount_cents: 700,
      reference: 'TRF-3',
      currency: 'USD',
    })
    assert.property(errors, 'currency')
    assert.deepEqual(await topUps(buyer.id), [{ reference: 'TRF-1', amount_cents: '5000' }])
    assert.deepEqual(await funds(buyer.id), [
      { mode: 'prepaid', currency: 'EUR', balance_cents: '5000' },
    ])
  })

  test('an operator who may only read records no top-up; a buyer sees its own funds and reaches no other’s', async ({
    assert,
  }) => {
    const buyer = await createBuyer()
    const other = await createBuyer()
    for (const id of [buyer.id, other.id]) {
      await db.table('buyer_funds').insert({
        buyer_id: id,
        currency: 'EUR',
        mode: 'prepaid',
        balance_cents: id === buyer.id ? 1200 : 99900,
        updated_at: new Date(),
      })
    }
    const reader = await agentAs('operator_admin', null, ['read'])
    await reader.visit(`/operator/buyers/${buyer.id}`)
    await reader.submit('POST', `/operator/buyers/${buyer.id}/top-ups`, {
      amount_cents: 5000,
      reference: 'TRF-9',
    })
    assert.deepEqual(await topUps(buyer.id), [])

    const agent = await agentAs('buyer_user', buyer.id, ['read'])
    const { status, page } = await agent.visit('/buyer/funds')
    assert.equal(status, 200)
    assert.equal(page!.component, 'buyer/funds')
    assert.deepInclude(page!.props.funds, { balance_cents: 1200, top_ups: [] })
    const refused = await agent.submit('POST', `/operator/buyers/${other.id}/top-ups`, {
      amount_cents: 5000,
      reference: 'TRF-9',
    })
    assert.notEqual(refused.status, 302)
    assert.deepEqual(await topUps(other.id), [])

    // A buyer without a billing mode: the page opens, with nothing to limit it.
    const free = await agentAs('buyer_user', (await createBuyer()).id, ['read'])
    const opened = await free.visit('/buyer/funds')
    assert.deepInclude(opened.page!.props.funds, { mode: null, available_cents: null })
  })
})
