import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import User from '#models/user'
import DemoSeeder, { DEMO_PASSWORD } from '#database/seeders/demo_seeder'

test.group('Demo seed', () => {
  test('gives every portal a login with the demo password, and a second run changes nothing', async ({
    assert,
  }) => {
    const seeder = new DemoSeeder(db.connection())
    const first = await seeder.seed()

    assert.deepEqual(
      first.logins.map(({ portal, email }) => [portal, email]),
      [
        ['/operator', 'operator@leadgate.local'],
        ['/publisher', 'publisher@leadgate.local'],
        ['/buyer', 'buyer@leadgate.local'],
        ['/compliance', 'compliance@leadgate.local'],
      ]
    )
    const acme = await Publisher.findByOrFail('slug', 'acme-media')
    assert.equal(acme.status, 'live')
    const northwind = await Buyer.query().where('name', 'Northwind Insurance').firstOrFail()
    const expected = {
      'operator@leadgate.local': ['operator_admin', null, null],
      'publisher@leadgate.local': ['publisher_user', acme.id, null],
      'buyer@leadgate.local': ['buyer_user', null, northwind.id],
      'compliance@leadgate.local': ['compliance_officer', null, null],
    }
    for (const [email, [role, publisherId, buyerId]] of Object.entries(expected)) {
      // The same check the sign-in form makes.
      const user = await User.verifyCredentials(email, DEMO_PASSWORD)
      assert.deepEqual([user.role, user.publisherId, user.buyerId], [role, publisherId, buyerId])
    }
    assert.match(first.apiKey ?? '', /^lg_live_/)

    const users = Number((await User.query().count('* as total'))[0].$extras.total)
    const second = await seeder.seed()
    assert.isNull(second.apiKey)
    assert.deepEqual(second.logins, first.logins)
    assert.equal(Number((await User.query().count('* as total'))[0].$extras.total), users)
  })
})
