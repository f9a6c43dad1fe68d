import { createHmac } from 'node:crypto'
import { inject } from '@adonisjs/core'
import encryption from '@adonisjs/core/services/encryption'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import { uuidv7 } from 'uuidv7'
import env from '#start/env'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { normaliseEmail } from '#services/quality/normalise'
import { toE164 } from '#services/quality/phone'
import AccessDocument from '#services/privacy/access_document'
import LeadEraser, { addCounts, noErasures } from '#services/privacy/lead_eraser'
import { findSubject, type Subject } from '#services/privacy/subject_finder'

export const PRIVACY_REQUEST_KINDS = ['access', 'erasure'] as const
export type PrivacyRequestKind = (typeof PRIVACY_REQUEST_KINDS)[number]
export type PrivacyRequestInput = { kind: PrivacyRequestKind } & Subject

const PURPOSE = 'privacy-request-subject'
/** An access document is personal data again: it is kept long enough to be fetched. */
const ACCESS_RESULT_HOURS = 72
/** Leads erased per transaction: each holds its leads' rows and chain heads briefly. */
const ERASE_BATCH = 100
/** A request still `running` after this long was interrupted (a deploy): it runs again. */
const STALE_MINUTES = 10

type RequestRow = {
  id: string
  kind: PrivacyRequestKind
  status: string
  result: unknown
  error: string | null
  created_at: Date
  completed_at: Date | null
  result_expires_at: Date | null
}

/**
 * Data-subject requests (docs/privacy.md): access collects everything held about an e-mail or
 * phone across every publisher as one document; erasure removes it everywhere it was copied
 * (LeadEraser). The request keeps keyed digests of the subject, so it never becomes another
 * copy of what it erased; the subject itself is kept encrypted only until the request ran.
 */
@inject()
export default class PrivacyRequestService {
  constructor(
    protected eraser: LeadEraser,
    protected documents: AccessDocument
  ) {}

  async create(principal: Principal, input: PrivacyRequestInput) {
    const subject = { email: input.email ?? null, phone: input.phone ?? null }
    const id = uuidv7()
    await db.table('privacy_requests').insert({
      id,
      kind: input.kind,
      status: 'pending',
      subject_digests: digestsOf(subject),
      subject_sealed: encryption.encrypt(JSON.stringify(subject), { purpose: PURPOSE }),
      requested_by: principal.actor,
      created_at: new Date(),
    })
    // Answered at once (202): the worker's privacy clock runs it within seconds.
    return this.show(id)
  }

  /**
   * A request is the operator's, and about live people: to anyone else, and to the operator's
   * sandbox credentials (which see no live object), it does not exist.
   */
  async findVisible(principal: Principal, id: string) {
    if (!principal.isOperator || principal.environment !== 'live') {
      throw ApiProblem.notFound('privacy request')
    }
    return this.show(id)
  }

  async show(id: string) {
    const row: RequestRow | null = await db
      .from('privacy_requests')
      .select('id', 'kind', 'status', 'result', 'error', 'created_at', 'completed_at')
      .select('result_expires_at')
      .where('id', id)
      .first()
    if (!row) throw ApiProblem.notFound('privacy request')
    return {
      id: row.id,
      kind: row.kind,
      status: row.status,
      created_at: row.created_at,
      completed_at: row.completed_at,
      result_expires_at: row.result_expires_at,
      result: row.result,
      error: row.error,
    }
  }

  /** Runs one request if nobody else is; a failure is recorded without the subject. */
  async run(id: string) {
    const claimed = await db.rawQuery(
      `UPDATE privacy_requests SET status = 'running'
        WHERE id = ? AND (status = 'pending'
              OR (status = 'running' AND created_at < now() - make_interval(mins => ?)))
        RETURNING kind, subject_sealed, subject_digests, requested_by`,
      [id, STALE_MINUTES]
    )
    const row = claimed.rows[0]
    if (!row) return
    try {
      const subject: Subject = JSON.parse(encryption.decrypt<string>(row.subject_sealed, PURPOSE)!)
      const result =
        row.kind === 'access'
          ? await this.access(subject)
          : await this.erase(subject, row.subject_digests, id, row.requested_by)
      await db
        .from('privacy_requests')
        .where('id', id)
        .update({
          status: 'completed',
          subject_sealed: null,
          result: JSON.stringify(result),
          completed_at: new Date(),
          result_expires_at:
            row.kind === 'access' ? new Date(Date.now() + ACCESS_RESULT_HOURS * 3_600_000) : null,
        })
    } catch (error) {
      logger.error({ err: error, request_id: id }, 'privacy request failed')
      await db
        .from('privacy_requests')
        .where('id', id)
        .update({ status: 'failed', error: 'The request failed; it can be filed again.' })
    }
  }

  /** Runs the waiting requests (and those a stopped worker left), then drops expired access documents. */
  async runWaiting(now = new Date()) {
    const waiting = await db
      .from('privacy_requests')
      .select('id')
      .whereIn('status', ['pending', 'running'])
      .orderBy('created_at')
    for (const { id } of waiting) await this.run(id)
    return db
      .from('privacy_requests')
      .where('result_expires_at', '<=', now)
      .whereNotNull('result')
      .update({ result: null })
  }

  private async access(subject: Subject) {
    const publishers = []
    for (const holdings of await findSubject(subject)) {
      publishers.push(await this.documents.holdings(holdings))
    }
    return { subject, generated_at: new Date().toISOString(), publishers }
  }

  private async erase(subject: Subject, digests: string[], requestId: string, actor: string) {
    const counts = addCounts(noErasures(), {})
    const found = await findSubject(subject)
    for (const { publisher, keys, leadIds } of found) {
      for (let start = 0; start === 0 || start < leadIds.length; start += ERASE_BATCH) {
        const batch = leadIds.slice(start, start + ERASE_BATCH)
        addCounts(counts, await this.eraser.erase(publisher, batch, actor, keys))
      }
    }
    // Earlier access documents about the same person are copies too.
    const documents = await db
      .from('privacy_requests')
      .whereRaw('subject_digests && ?::char(64)[]', [digests])
      .whereNot('id', requestId)
      .whereNotNull('result')
      .update({ result: null, subject_sealed: null })
    return { publishers: found.length, ...counts, access_documents: Number(documents) }
  }
}

/** Keyed digests of the subject's normalised e-mail and phone (E.164 as given). */
function digestsOf(subject: Subject) {
  const values = [
    subject.email ? `email:${normaliseEmail(subject.email)}` : null,
    subject.phone ? `phone:${toE164(subject.phone, 'NL') ?? subject.phone.trim()}` : null,
  ].filter((value): value is string => value !== null)
  const key = env.get('APP_KEY').release()
  return values.map((value) => createHmac('sha256', key).update(value).digest('hex'))
}
