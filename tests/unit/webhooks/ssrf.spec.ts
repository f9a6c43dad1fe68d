import { test } from '@japa/runner'
import { AddressPolicy, SsrfRefused, pinnedLookup, urlProblem } from '#services/webhooks/ssrf_guard'

const strict = new AddressPolicy([])
const lookupWith = (policy: AddressPolicy, answers: Record<string, string[]>) =>
  pinnedLookup(policy, async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  )

function lookup(fn: ReturnType<typeof pinnedLookup>, host: string, all: boolean) {
  return new Promise<{ error: any; result: any[] }>((resolve) =>
    fn(host, { all }, (error: any, ...result: any[]) => resolve({ error, result }))
  )
}

test.group('Webhooks / SSRF guard', () => {
  test('refuses every non-public address class and allows public unicast', ({ assert }) => {
    const refused = {
      '127.0.0.1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.5.4': 'private',
      '192.168.0.10': 'private',
      '169.254.169.254': 'linkLocal',
      '100.64.1.1': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '224.0.0.1': 'multicast',
      '::1': 'loopback',
      'fe80::1': 'linkLocal',
      'fd00:ec2::254': 'uniqueLocal',
      '::ffff:127.0.0.1': 'ipv4Mapped',
      '::ffff:10.0.0.1': 'ipv4Mapped',
      '64:ff9b::a00:1': 'rfc6052',
      '2002:a00:1::1': '6to4',
      // IPv4-compatible IPv6: the metadata service and the loopback in the deprecated ::/96 form.
      '::a9fe:a9fe': 'ipv4Compatible',
      '::7f00:1': 'ipv4Compatible',
    }
    for (const [address, range] of Object.entries(refused))
      assert.equal(strict.refusal(address), range, address)
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111'])
      assert.isNull(strict.refusal(address), address)
  })

  test('the allowlist admits exactly what it names; a mapped address needs its own entry', ({
    assert,
  }) => {
    const policy = new AddressPolicy(['127.0.0.1/32', '10.20.0.0/16'])
    assert.isNull(policy.refusal('127.0.0.1'))
    assert.isNull(policy.refusal('10.20.3.4'))
    assert.equal(policy.refusal('127.0.0.2'), 'loopback')
    assert.equal(policy.refusal('10.21.0.1'), 'private')
    assert.equal(policy.refusal('::ffff:127.0.0.1'), 'ipv4Mapped')
    assert.isNull(new AddressPolicy(['::ffff:127.0.0.1/128']).refusal('::ffff:127.0.0.1'))
  })

  test('save-time check: literal private addresses, resolved private names, credentials and http in production', async ({
    assert,
  }) => {
    const options = {
      policy: strict,
      requireHttps: false,
      resolveTimeoutMs: 500,
      resolver: async (host: string) =>
        host === 'internal.example' ? [{ address: '10.0.0.7', family: 4 }] : [],
    }
    assert.equal(
      (await urlProblem('http://169.254.169.254/latest/meta-data', options))?.code,
      'forbidden_address'
    )
    assert.equal(
      (await urlProblem('http://[::ffff:127.0.0.1]:8080/', options))?.code,
      'forbidden_address'
    )
    assert.equal(
      (await urlProblem('https://internal.example/hook', options))?.code,
      'forbidden_address'
    )
    assert.equal(
      (await urlProblem('https://user:pw@crm.example/hook', options))?.code,
      'url_credentials'
    )
    assert.equal((await urlProblem('ftp://crm.example/hook', options))?.code, 'https_required')
    assert.equal(
      (await urlProblem('http://crm.example/hook', { ...options, requireHttps: true }))?.code,
      'https_required'
    )
    // A name that does not resolve now is accepted: every dial checks again.
    assert.isNull(await urlProblem('https://crm.example/hook', options))
    assert.isNull(await urlProblem('https://8.8.8.8/hook', options))
  })

  test('dial time: a name that now resolves to a private address is refused (DNS rebinding)', async ({
    assert,
  }) => {
    const fn = lookupWith(strict, {
      'rebind.example': ['93.184.216.34', '10.0.0.5'],
      'metadata.example': ['169.254.169.254'],
    })
    for (const all of [true, false]) {
      const { error } = await lookup(fn, 'rebind.example', all)
      assert.instanceOf(error, SsrfRefused)
      assert.equal(error.address, '10.0.0.5')
    }
    assert.equal((await lookup(fn, 'metadata.example', true)).error.range, 'linkLocal')
    assert.equal((await lookup(fn, 'nowhere.example', true)).error.code, 'ENOTFOUND')
  })

  test('dial time: a public answer is pinned to the one checked address', async ({ assert }) => {
    const fn = lookupWith(strict, { 'crm.example': ['93.184.216.34', '93.184.216.35'] })
    assert.deepEqual(await lookup(fn, 'crm.example', true), {
      error: null,
      result: [[{ address: '93.184.216.34', family: 4 }]],
    })
    assert.deepEqual(await lookup(fn, 'crm.example', false), {
      error: null,
      result: ['93.184.216.34', 4],
    })
  })
})
