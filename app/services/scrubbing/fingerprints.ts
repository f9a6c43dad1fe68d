import { createHmac, hkdfSync } from 'node:crypto'
import { appKey } from '#config/app'
import type { Normalised } from '#services/quality/types'

export type FingerprintKind = 'email' | 'phone'
export type Fingerprint = { kind: FingerprintKind; digest: string }

/**
 * The platform's fingerprint key (DESIGN §15): derived from the app key for its one purpose, so
 * a fingerprint means nothing without the deployment's secret (an e-mail or a phone cannot be
 * found by hashing guesses, unlike a bare SHA-256).
 */
const KEY = Buffer.from(hkdfSync('sha256', appKey.release(), 'leadgate', 'lead-fingerprints', 32))

/** HMAC-SHA256 of a normalised value (a lower-cased e-mail, an E.164 phone), as hex. */
export function fingerprint(kind: FingerprintKind, value: string) {
  return createHmac('sha256', KEY).update(`${kind}:${value}`).digest('hex')
}

/** A lead's fingerprints: one per contact field it has, never the values. */
export function fingerprintsOf(normalised: Pick<Normalised, 'email' | 'phone'>): Fingerprint[] {
  const prints: Fingerprint[] = []
  if (normalised.email)
    prints.push({ kind: 'email', digest: fingerprint('email', normalised.email) })
  if (normalised.phone)
    prints.push({ kind: 'phone', digest: fingerprint('phone', normalised.phone) })
  return prints
}
