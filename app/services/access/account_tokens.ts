import { DateTime, type DurationLike } from 'luxon'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AccountToken, { type AccountTokenPurpose } from '#models/account_token'
import User from '#models/user'
import { digestOf, newSecret } from '#services/access/secret_token'

const PREFIXES: Record<AccountTokenPurpose, string> = {
  password_reset: 'pwr_',
  invitation: 'uin_',
}

/** Why a link cannot be used. */
export type TokenUnavailable = 'unknown' | 'expired' | 'used'

export type TokenLookup =
  { state: 'valid'; token: AccountToken; user: User } | { state: TokenUnavailable }

/**
 * Issues a link for `user`. An earlier unused link of the same purpose
 * expires at once: only the newest one in the user's mailbox works.
 */
export async function issueToken(
  trx: TransactionClientContract,
  user: User,
  purpose: AccountTokenPurpose,
  validFor: DurationLike
) {
  const now = DateTime.utc()
  await AccountToken.query({ client: trx })
    .where('user_id', user.id)
    .where('purpose', purpose)
    .whereNull('used_at')
    .where('expires_at', '>', now.toSQL())
    .update({ expires_at: now.toSQL() })
  const token = newSecret(PREFIXES[purpose])
  const row = await AccountToken.create(
    {
      userId: user.id,
      purpose,
      tokenHash: digestOf(token),
      expiresAt: now.plus(validFor),
      usedAt: null,
    },
    { client: trx }
  )
  return { token, row }
}

/**
 * Finds the link `token` names. Inside a transaction the row stays locked,
 * so two clicks on the same link spend it once. A disabled user's links lead nowhere.
 */
export async function findToken(
  token: string,
  purpose: AccountTokenPurpose,
  trx?: TransactionClientContract
): Promise<TokenLookup> {
  if (!shapeOf(purpose).test(token)) return { state: 'unknown' }
  const query = AccountToken.query({ client: trx })
    .where('token_hash', digestOf(token))
    .where('purpose', purpose)
  if (trx) query.forUpdate()
  const row = await query.first()
  if (!row) return { state: 'unknown' }
  if (row.usedAt) return { state: 'used' }
  if (row.expiresAt <= DateTime.utc()) return { state: 'expired' }
  const user = await User.find(row.userId, { client: trx })
  if (!user || user.disabledAt) return { state: 'unknown' }
  return { state: 'valid', token: row, user }
}

/** A new password spends every link still open for the user: each was a way to choose one. */
export async function spendTokens(trx: TransactionClientContract, userId: string) {
  await AccountToken.query({ client: trx })
    .where('user_id', userId)
    .whereNull('used_at')
    .update({ used_at: DateTime.utc().toSQL() })
}

/** Whether the user still has an invitation it never used (expired ones count: resending is for them). */
export async function hasOpenInvitation(trx: TransactionClientContract, userId: string) {
  const open = await AccountToken.query({ client: trx })
    .where('user_id', userId)
    .where('purpose', 'invitation')
    .whereNull('used_at')
    .first()
  return Boolean(open)
}

function shapeOf(purpose: AccountTokenPurpose) {
  return new RegExp(`^${PREFIXES[purpose]}[A-Za-z0-9_-]{43}$`)
}
