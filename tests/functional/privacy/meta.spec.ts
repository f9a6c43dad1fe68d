import { test } from '@japa/runner'
import privacyConfig from '#config/privacy'

test.group('Privacy / meta', () => {
  test('anyone reads the version, region and data residency', async ({ client, assert }) => {
    const meta = await client.get('/v1/meta')
    meta.assertStatus(200)
    assert.deepEqual(Object.keys(meta.body()).sort(), ['data_residency', 'region', 'version'])
    assert.equal(meta.body().region, privacyConfig.region)
    assert.equal(meta.body().data_residency, privacyConfig.dataResidency)
    assert.isString(meta.body().version)
  })

  test('the webhook egress addresses are the configured ones', async ({ client, assert }) => {
    const configured = privacyConfig.egressAddresses
    privacyConfig.egressAddresses = ['203.0.113.10/32', '2001:db8::10/128']
    try {
      const ranges = await client.get('/v1/meta/ip-ranges')
      ranges.assertStatus(200)
      assert.deepEqual(ranges.body(), { webhooks: ['203.0.113.10/32', '2001:db8::10/128'] })
    } finally {
      privacyConfig.egressAddresses = configured
    }
  })
})
