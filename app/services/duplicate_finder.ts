import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Publisher from '#models/publisher'
import type { Environment } from '#auth/principal'
import type { Normalised } from '#services/quality/types'
import type { QualityRules } from '#validators/quality_rules'

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
 * Looks up the keys of leads about to be written. Copies of one lead
 * arriving at once are serialised on an advisory lock per key, taken before
 * the lookup and held to the commit, so the later one always sees the first.
 */
export async function screenDuplicates(
  trx: TransactionClientContract,
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
  if (!window || keys.length === 0) return new DuplicateScreen(keysOf, new Set())

  // Every lock in one statement, taken in the array's (sorted) order, so two groups sharing keys cannot deadlock.
  const locks = [...new Set(keys.map(([, value]) => `dup:${publisher.id}:${value}`))].sort()
  await trx.rawQuery(
    'SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(?::text[]) AS k',
    [locks]
  )
  const since = new Date(now.getTime() - window.window_days * DAY_MS)
  const held = (column: Key[0]) =>
    `SELECT '${column}:' || v AS key FROM jsonb_array_elements_text(?::jsonb) v, LATERAL (
       SELECT 1 FROM leads l WHERE l.${column} = v AND l.environment = ? AND l.status <> 'rejected' AND l.created_at >= ? LIMIT 1) hit`
  const valuesOf = (column: Key[0]) =>
    JSON.stringify([...new Set(keys.filter(([name]) => name === column).map(([, value]) => value))])
  // One index probe per key (LATERAL … LIMIT 1): an EXISTS here may be planned as a scan of every lead.
  const earlier = await trx.rawQuery(`${held('email_key')} UNION ALL ${held('phone_key')}`, [
    valuesOf('email_key'),
    environment,
    since,
    valuesOf('phone_key'),
    environment,
    since,
  ])
  const seen = new Set<string>(earlier.rows.map((row: { key: string }) => row.key))
  return new DuplicateScreen(keysOf, seen)
}
