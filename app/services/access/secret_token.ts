import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Environment } from '#auth/principal'

export const KEY_PREFIXES: Record<Environment, string> = { live: 'lg_live_', sandbox: 'lg_test_' }

/**
 * Secrets are 32 random bytes. They carry enough entropy that one SHA-256 is
 * a safe stored form, and it lets a request find its key with one indexed look-up.
 */
export function newSecret(prefix: string) {
  return `${prefix}${randomBytes(32).toString('base64url')}`
}

export function digestOf(secret: string) {
  return createHash('sha256').update(secret).digest('hex')
}

export function digestsMatch(secret: string, digest: string) {
  const given = Buffer.from(digestOf(secret), 'hex')
  const stored = Buffer.from(digest, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}
