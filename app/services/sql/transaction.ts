import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable'

/**
 * Runs `work` in a transaction and returns only once Postgres confirmed the
 * COMMIT. Every write of the engine goes through here, never through
 * `db.transaction` (lint refuses it): when the connection dies during
 * COMMIT, knex swallows the error of its COMMIT query and rejects only the
 * transaction's own execution promise, so Lucid's `commit()` resolves and a
 * caller would answer 201 for rows that were never stored. Here that
 * rejection is what the caller gets (answered 503, see problem_mapping).
 */
export async function transaction<T>(
  work: (trx: TransactionClientContract) => Promise<T>,
  options: { isolationLevel?: IsolationLevel } = {}
): Promise<T> {
  // eslint-disable-next-line no-restricted-properties -- the one place that opens transactions
  const trx = await db.transaction(options)
  const settled = trx.knexClient.executionPromise
  // Awaited below on success; on the way out through an error nobody waits for it.
  settled.catch(() => {})
  let result: T
  try {
    result = await work(trx)
  } catch (error) {
    // A connection lost mid-transaction ends it inside knex, and the work's next query fails
    // with "Transaction query already complete": the lost connection is what the caller hears.
    if (trx.isCompleted)
      throw (
        (await settled.then(
          () => undefined,
          (cause) => cause
        )) ?? error
      )
    await trx.rollback()
    throw error
  }
  if (!trx.isCompleted) await trx.commit()
  await settled
  return result
}
