import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Publisher from '#models/publisher'
import type { Environment } from '#auth/principal'
import type { Normalised } from '#services/quality/types'
import type { QualityRules } from '#services/quality/quality_rules'
import { fingerprint } from '#services/scrubbing/fingerprints'

const DAY_MS = 86_400_000

type Key = ['email_key' | 'phone_key', string]

/**
 * The duplicate rule's memory for leads written together: which of their
 * keys an earlier lead (same publisher and environment, not itself rejected,
 * inside the window) already holds. Leads of the group are screened in
 * order, each remembering its keys once it is not rejected, so a copy later
 * in the same group is a duplicate of the first.
 */
export class DuplicateScreen {
  constructor(
    private keysOf: (normalised: Normalised) => Key[],
    private seen: Set<string>
  ) {}

  isDuplicate(normalised: Normalised) {
    return this.keysOf(normalised).some((key) => this.seen.has(key.join(':')))
  }

  remember(normalised: Normalised) {
    for (const key of this.keysOf(normalised)) this.seen.add(key.join(':'))
  }
}

/**
 * Enters the publisher's schema and looks up the keys of leads about to be
 * written, in one round trip (the first statement of a transaction run by
 * `TenancyService.runEntered`). Copies of one lead arriving at once are
 * serialised on an advisory lock per key, taken before the lookup and held
 * to the commit, so the later one always sees the first.
 */
export async function enterAndScreen(
  trx: TransactionClientContract,
  schemaName: string,
  publisher: Publisher,
  rules: QualityRules,
  leads: Normalised[],
  environment: Environment,
  now: Date
) {
  const window = rules.duplicates
  const keysOf = (normalised: Normalised): Key[] =>
    (window?.keys ?? [])
      .map((key): [Key[0], string | null] =>
        key === 'contact.email' ? ['email_key', normalised.email] : ['phone_key', normalised.phone]
      )
      .filter((pair): pair is Key => typeof pair[1] === 'string')
  const keys = leads.flatMap(keysOf)
  const valuesOf = (column: Key[0]) => [
    ...new Set(keys.filter(([name]) => name === column).map(([, value]) => value)),
  ]
  // A platform-wide rule serialises copies from any publisher, a publisher's its own; taken in this
  // (sorted) order, so two groups sharing keys cannot deadlock.
  const platform = window?.scope === 'platform'
  const scope = platform ? 'platform' : publisher.id
  const locks = [...new Set(keys.map(([, value]) => `dup:${scope}:${value}`))].sort()
  const since = new Date(now.getTime() - (window?.window_days ?? 0) * DAY_MS)
  const earlier = await trx.rawQuery(
    'SELECT key FROM intake_enter_and_screen(?, ?::text[], ?::text[], ?::text[], ?, ?) AS key',
    [schemaName, locks, valuesOf('email_key'), valuesOf('phone_key'), environment, since]
  )
  const seen = new Set<string>(earlier.rows.map((row: { key: string }) => row.key))
  if (platform && keys.length > 0) {
    for (const key of await elsewhere(trx, publisher.id, keys, environment, since)) seen.add(key)
  }
  return new DuplicateScreen(keysOf, seen)
}

/**
 * The keys other publishers' leads already hold inside the window, found by fingerprint (the
 * values never leave their schemas): `platform` scope. The locks above are taken first.
 */
async function elsewhere(
  trx: TransactionClientContract,
  publisherId: string,
  keys: Key[],
  environment: Environment,
  since: Date
) {
  const byDigest = new Map(
    keys.map((key) => [fingerprint(key[0] === 'email_key' ? 'email' : 'phone', key[1]), key])
  )
  const found = await trx.rawQuery(
    `SELECT DISTINCT digest FROM public.lead_fingerprints
      WHERE digest = ANY(?::text[]) AND environment = ? AND created_at >= ? AND publisher_id <> ?`,
    [[...byDigest.keys()], environment, since, publisherId]
  )
  return found.rows.map((row: { digest: string }) => byDigest.get(row.digest)!.join(':'))
}
