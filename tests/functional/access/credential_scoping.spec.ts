import { test } from '@japa/runner'
import ApiKey from '#models/api_key'
import { createBuyer, createKey, createPublisher } from '#tests/support/fixtures'

/**
 * What the portals' keys pages rely on in the credential services: a refusal names the field it
 * is about, and a buyer's keys are its own, though a buyer key still manages none.
 */
test.group('Credentials / scoping for the portals', () => {
  test('giving a key more than its creator holds is refused at "permissions", and nothing is stored', async ({
    client,
    assert,
  }) => {
    const publisher = await createPublisher()
    const submitOnly = await createKey({ publisherId: publisher.id, permissions: ['submit'] })
    const before = await ApiKey.query().where('publisher_id', publisher.id)

    const response = await client
      .post('/v1/api-keys')
      .bearerToken(submitOnly.secret)
      .json({ name: 'Too much', permissions: ['read', 'submit'], environment: 'sandbox' })
    response.assertStatus(403)
    assert.equal(response.body().code, 'permission_escalation')
    assert.equal(response.body().field, 'permissions')
    assert.deepEqual(
      (await ApiKey.query().where('publisher_id', publisher.id)).map((key) => key.id),
      before.map((key) => key.id)
    )
  })

  test("a buyer key neither lists nor revokes its buyer's keys", async ({ client, assert }) => {
    const buyer = await createBuyer()
    const caller = await createKey({ buyerId: buyer.id, permissions: ['read', 'submit'] })
    const sibling = await createKey({ buyerId: buyer.id, permissions: ['read'] })

    ;(await client.get('/v1/api-keys').bearerToken(caller.secret)).assertStatus(403)
    const revoke = await client
      .delete(`/v1/api-keys/${sibling.apiKey.id}`)
      .bearerToken(caller.secret)
    assert.include([403, 404], revoke.status())
    await sibling.apiKey.refresh()
    assert.isNull(sibling.apiKey.revokedAt)
  })
})
