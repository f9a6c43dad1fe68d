import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import ApiProblem from '#exceptions/api_problem'

export type StoredAnswer = { status: number; body: unknown }
const RETENTION = "interval '24 hours'"

/**
 * Idempotency-Key: the first answer for a (credential, key) pair is replayed
 * for 24 hours; the same key with another body is a 409. The claim is a row
 * inserted in the lead's own transaction, so concurrent duplicates wait on
 * the unique index and then see the committed first answer: one lead, always.
 */
export default class IdempotencyService {
  static validKey(key: string) {
    return key.length >= 1 && key.length <= 255 && /^[\x21-\x7e]+$/.test(key)
  }

  digest(method: string, path: string, body: unknown) {
    return createHash('sha256')
      .update(`${method} ${path}\n${canonicalize(body) ?? ''}`)
      .digest('hex')
  }

  /** Returns the stored answer to replay, or undefined when this request now owns the key. */
  async claim(
    trx: TransactionClientContract,
    credentialId: string,
    key: string,
    digest: string
  ): Promise<StoredAnswer | undefined> {
    await trx.rawQuery(
      `DELETE FROM public.idempotency_keys WHERE credential_id = ? AND key = ? AND created_at < now() - ${RETENTION}`,
      [credentialId, key]
    )
    const claimed = await trx.rawQuery(
      `INSERT INTO public.idempotency_keys (credential_id, key, request_digest, created_at)
       VALUES (?, ?, ?, now()) ON CONFLICT DO NOTHING RETURNING key`,
      [credentialId, key, digest]
    )
    if (claimed.rows.length > 0) return undefined

    const stored = await trx.rawQuery(
      'SELECT request_digest, response_status, response_body FROM public.idempotency_keys WHERE credential_id = ? AND key = ?',
      [credentialId, key]
    )
    const row = stored.rows[0]
    if (row.request_digest !== digest) {
      throw ApiProblem.conflict(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body.'
      )
    }
    if (row.response_status === null) {
      throw ApiProblem.conflict(
        'idempotency_key_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly.'
      )
    }
    return { status: row.response_status, body: row.response_body }
  }

  async remember(
    trx: TransactionClientContract,
    credentialId: string,
    key: string,
    answer: StoredAnswer
  ) {
    await trx.rawQuery(
      'UPDATE public.idempotency_keys SET response_status = ?, response_body = ? WHERE credential_id = ? AND key = ?',
      [answer.status, JSON.stringify(answer.body), credentialId, key]
    )
  }
}
