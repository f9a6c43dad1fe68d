import { createHmac, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { openSecrets } from '#services/plugins/plugin_settings'

/** The plugin whose installation holds a label's CallRail signing key (plugins/calls-callrail). */
export const CALLRAIL_PLUGIN = 'calls-callrail'

/**
 * The CallRail signing keys this caller's requests must be signed with: its
 * label's `calls-callrail` installation in the key's environment (a sandbox
 * key is checked against the sandbox installation's key), or, for the
 * operator, every label's. None: nothing to check (the bearer key alone
 * authenticates, as for every vendor route).
 */
export async function callrailSigningKeys(principal: Principal): Promise<string[]> {
  if (!principal.isOperator && !principal.publisherId) return []
  const query = db
    .from('plugin_installations as i')
    .where('i.plugin', CALLRAIL_PLUGIN)
    .where('i.environment', principal.environment)
    .select('i.secrets')
  if (!principal.isOperator) {
    query.join('publishers as p', 'p.label_id', 'i.label_id').where('p.id', principal.publisherId!)
  }
  const rows: { secrets: string | null }[] = await query
  return rows
    .map((row) => openSecrets(row.secrets).signing_key)
    .filter((key): key is string => typeof key === 'string' && key !== '')
}

/** CallRail's scheme: base64(HMAC-SHA1(signing key, raw body)) in the `Signature` header. */
export function callrailSignature(signingKey: string, rawBody: string) {
  return createHmac('sha1', signingKey).update(rawBody, 'utf8').digest('base64')
}

/** True when the header is the signature of the exact body under one of the keys (timing-safe). */
export function callrailSignatureVerifies(
  keys: string[],
  rawBody: string,
  header: string | undefined | null
) {
  if (!header) return false
  const given = Buffer.from(header.trim())
  return keys.some((key) => {
    const expected = Buffer.from(callrailSignature(key, rawBody))
    return expected.length === given.length && timingSafeEqual(expected, given)
  })
}

/**
 * When the caller's label holds a CallRail signing key, the exact body must
 * carry CallRail's signature of it: otherwise 401, before anything is read or
 * recorded. True when it verified; false when there is no key to check with.
 */
export async function verifyCallrailRequest(
  principal: Principal,
  rawBody: string,
  header: string | undefined | null
) {
  const keys = await callrailSigningKeys(principal)
  if (keys.length === 0) return false
  if (!callrailSignatureVerifies(keys, rawBody, header)) {
    throw ApiProblem.unauthorized(
      'invalid_signature',
      "The Signature header is not CallRail's signature of this body with the label's signing key."
    )
  }
  return true
}
