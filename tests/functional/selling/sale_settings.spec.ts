import { test } from '@japa/runner'
import Label from '#models/label'
import { createLabel, operatorKey } from '#tests/support/fixtures'

test.group('Selling / a label’s sale settings', () => {
  test('PATCH /v1/labels/{id} sets the ping policy field by field over what is stored', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const key = await operatorKey()
    const first = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({ sale: { auction: 'second_price', ping_policy: { 'attributes.*': 'bucketed' } } })
    first.assertStatus(200)
    const second = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({ sale: { ping_policy: { 'provenance.campaign': 'never' } } })
    second.assertStatus(200)
    const policy = second.body().sale.ping_policy
    assert.equal(second.body().sale.auction, 'second_price')
    assert.equal(policy['attributes.*'], 'bucketed')
    assert.equal(policy['provenance.campaign'], 'never')
    // The defaults of the fields not named stay filled in.
    assert.equal(policy['contact.postal_code'], 'bucketed')
    await label.refresh()
    assert.deepEqual(label.sale?.ping_policy, {
      'attributes.*': 'bucketed',
      'provenance.campaign': 'never',
    })
  })

  test('a ping policy that would ping a contact field, or names no field, changes nothing', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const key = await operatorKey()
    for (const [policy, code] of [
      [{ 'contact.email': 'plain' }, 'never_pinged'],
      [{ 'contact.phone': 'bucketed' }, 'never_pinged'],
      [{ 'contact.street': 'plain' }, 'ping_field'],
      [{ 'attributes.age': 'hashed' }, 'enum'],
    ] as const) {
      const response = await client
        .patch(`/v1/labels/${label.id}`)
        .bearerToken(key)
        .json({ sale: { max_sales: 2, ping_policy: policy } })
      response.assertStatus(422)
      const errors = response.body().errors.map((error: any) => [error.field, error.code])
      assert.isTrue(
        errors.some(
          ([field, found]: [string, string]) =>
            field.startsWith('sale.ping_policy') && found === code
        ),
        JSON.stringify(errors)
      )
      assert.notInclude(JSON.stringify(response.body()), '@')
    }
    assert.isNull((await Label.findOrFail(label.id)).sale)

    // Saying `never` of a contact field is only saying what the sale does anyway.
    const never = await client
      .patch(`/v1/labels/${label.id}`)
      .bearerToken(key)
      .json({ sale: { ping_policy: { 'contact.email': 'never' } } })
    never.assertStatus(200)
  })
})
