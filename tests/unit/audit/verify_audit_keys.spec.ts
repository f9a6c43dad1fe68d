import { test } from '@japa/runner'
import { generateKeyPairSync } from 'node:crypto'
// @ts-expect-error the verifier is a dependency-free .mjs file without type declarations
import { keyIdOf, parseKey } from '../../../bin/verify_audit.mjs'

/** A C2SP verifier key `name+keyid+base64(0x01 ‖ key)` for a fresh Ed25519 key. */
function verifierKeyWithPlus() {
  for (;;) {
    const raw = generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'der', type: 'spki' })
      .subarray(-32)
    const encoded = Buffer.concat([Buffer.of(0x01), raw]).toString('base64')
    if (encoded.includes('+')) {
      const name = 'leadgate.localhost/audit-log'
      return { text: `${name}+${keyIdOf(name, raw).toString('hex')}+${encoded}`, raw }
    }
  }
}

test.group('Offline verifier / keys', () => {
  test('a verifier key whose base64 contains "+" is read whole', ({ assert }) => {
    const { text, raw } = verifierKeyWithPlus()
    const parsed = parseKey(text)
    assert.equal(parsed.name, 'leadgate.localhost/audit-log')
    assert.isTrue(Buffer.from(parsed.key).equals(raw))
  })

  test('a verifier key with the wrong id is refused', ({ assert }) => {
    const { text } = verifierKeyWithPlus()
    const [name, , encoded] = [
      text.slice(0, text.indexOf('+')),
      null,
      text.slice(text.indexOf('+') + 10),
    ]
    assert.throws(() => parseKey(`${name}+00000000+${encoded}`), /id does not match/)
  })
})
