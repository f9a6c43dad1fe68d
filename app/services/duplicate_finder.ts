import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Publisher from '#models/publisher'
import type { Environment } from '#auth/principal'
import type { Normalised } from '#services/quality/types'
import type { QualityRules } from '#validators/quality_rules'

const DAY_MS = 86_400_000

/**
 * An earlier lead of the same publisher and environment, not itself rejected,
 * with the same normalised e-mail or phone inside the window. Two copies of
 * one lead arriving at once are serialised on an advisory lock per key, so
 * the second always sees the first.
 */
export async function findDuplicate(
  trx: TransactionClientContract,
  publisher: Publisher,
  rules: QualityRules,
  normalised: Normalised,
  environment: Environment,
  now: Date
) {
  const window = rules.duplicates
  if (!window) return false
  const keys = window.keys
    .map((key) => (key === 'contact.email' ? ['email_key', normalised.email] : ['phone_key', normalised.phone]))
    .filter((pair): pair is [string, string] => typeof pair[1] === 'string')
  if (keys.length === 0) return false

  // Both locks in one statement, always in the same order, so two leads sharing keys cannot deadlock.
  const values = keys.map(([, value]) => `dup:${publisher.id}:${value}`).sort()
  await trx.rawQuery(`SELECT ${values.map(() => 'pg_advisory_xact_lock(hashtextextended(?, 0))').join(', ')}`, values)
  const since = new Date(now.getTime() - window.window_days * DAY_MS)
  const earlier = await trx
    .from('leads')
    .where('environment', environment)
    .whereNot('status', 'rejected')
    .where('created_at', '>=', since)
    .where((query) => {
      for (const [column, value] of keys) query.orWhere(column, value)
    })
    .select('id')
    .first()
  return Boolean(earlier)
}
