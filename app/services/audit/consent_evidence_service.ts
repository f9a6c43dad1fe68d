import {
  type KeyObject,
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { normaliseEmail, normaliseIp } from '#services/quality/normalise'
import { type Column, insertRows, insertTogether } from '#services/sql/insert_together'

export type ConsentMethod = 'checkbox' | 'form_submit' | 'api' | 'upload'

export type EvidenceInput = {
  leadId: string
  publisherId: string
  /** The exact wording the applicant agreed to. */
  text: string
  method: ConsentMethod
  pageUrl: string | null
  consentedAt: Date
  /** Normalised contact values (`evaluateLead(...).normalised`); phone in E.164. */
  ip: string | null
  email: string | null
  phone: string | null
}

/**
 * The page of the evidence: the landing page's origin and path. Its query and fragment stay
 * out: they may carry the applicant's e-mail or an id (`?email=…`), and the evidence is kept
 * for ever, past any erasure.
 */
export function evidencePage(landingPage: string | null | undefined) {
  if (!landingPage || !URL.canParse(landingPage)) return null
  const url = new URL(landingPage)
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? `${url.origin}${url.pathname}`
    : null
}

export type CommittedValues = Pick<EvidenceInput, 'ip' | 'email' | 'phone'>

export type ConsentEvidence = {
  lead_id: string
  publisher_id: string
  text_digest: string
  text_version: number
  method: ConsentMethod
  page_url: string | null
  consented_at: Date
  ip_commitment: string | null
  email_commitment: string | null
  phone_commitment: string | null
  created_at: Date
}

const SALT_BYTES = 32
/** Versions of wordings known to be committed, by digest (see versionOf). */
const committedTexts = new Map<string, number>()

export function textDigest(text: string) {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * HMAC-SHA256 under the lead's salt. The field name is part of the message,
 * so an e-mail and a phone with the same text never share a commitment.
 */
export function commitment(
  salt: Buffer | KeyObject,
  field: keyof CommittedValues,
  value: string | null
) {
  const canonical = canonicalValue(field, value)
  if (canonical === null) return null
  return createHmac('sha256', salt).update(`${field}\n${canonical}`, 'utf8').digest('hex')
}

function canonicalValue(field: keyof CommittedValues, value: string | null) {
  if (value === null || value.trim() === '') return null
  if (field === 'ip') return normaliseIp(value) ?? value.trim()
  if (field === 'email') return normaliseEmail(value)
  return value.trim()
}

/**
 * Whether the given IP, e-mail and phone are the ones the evidence committed
 * to. Every field is compared; an absent value matches only an absent commitment.
 */
export function commitmentsMatch(
  salt: Buffer,
  values: CommittedValues,
  evidence: Pick<ConsentEvidence, 'ip_commitment' | 'email_commitment' | 'phone_commitment'>
) {
  return (['ip', 'email', 'phone'] as const).every((field) => {
    const expected = evidence[`${field}_commitment`]
    const given = commitment(salt, field, values[field])
    if (expected === null || given === null) return expected === given
    return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))
  })
}

const EVIDENCE_COLUMNS: Column[] = [
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['text_digest', 'char(64)'],
  ['text_version', 'int'],
  ['method', 'text'],
  ['page_url', 'text'],
  ['consented_at', 'timestamptz'],
  ['ip_commitment', 'char(64)'],
  ['email_commitment', 'char(64)'],
  ['phone_commitment', 'char(64)'],
]

/** A lead's evidence as one row (`EVIDENCE_COLUMNS`). */
export type EvidenceRow = Record<string, unknown>

/**
 * Consent proof that outlives the personal data (docs/audit.md, "How the evidence fits together"): the wording,
 * stored once and versioned, and per lead how, where and when consent was
 * given, with commitments instead of the IP, e-mail and phone themselves.
 */
export default class ConsentEvidenceService {
  /**
   * Writes the evidence in the caller's transaction and returns the salt,
   * which belongs in the publisher's schema (`lead_secrets`): deleting it
   * there is what makes the commitments unlinkable after erasure.
   */
  async record(trx: TransactionClientContract, input: EvidenceInput) {
    const { salt, row } = await this.prepare(trx, input)
    const [evidence] = await insertTogether(trx, [this.insertOf([row], { returning: true })])
    return { salt, evidence: evidence as ConsentEvidence }
  }

  /**
   * The evidence as a row for the caller to write with its other writes
   * (`insertOf`, `insertTogether`), once the wording is stored, and the
   * lead's new salt.
   */
  async prepare(trx: TransactionClientContract, input: EvidenceInput) {
    const salt = randomBytes(SALT_BYTES)
    // One key object for the three commitments: handing HMAC a Buffer re-wraps it each time, at a measurable cost.
    const key = createSecretKey(salt)
    const digest = textDigest(input.text)
    const version = await this.versionOf(trx, input.text, digest)
    const row: EvidenceRow = {
      lead_id: input.leadId,
      publisher_id: input.publisherId,
      text_digest: digest,
      text_version: version,
      method: input.method,
      page_url: input.pageUrl,
      consented_at: input.consentedAt,
      ip_commitment: commitment(key, 'ip', input.ip),
      email_commitment: commitment(key, 'email', input.email),
      phone_commitment: commitment(key, 'phone', input.phone),
    }
    return { salt, row }
  }

  /** One INSERT for the evidence of several leads (rows of `prepare`). */
  insertOf(rows: EvidenceRow[], options: { returning?: boolean } = {}) {
    return insertRows(
      'audit.consent_evidence',
      EVIDENCE_COLUMNS,
      rows,
      options.returning ? ' RETURNING *' : ''
    )
  }

  async evidenceFor(
    publisherId: string | null,
    leadId: string,
    client: QueryClientContract = db.connection()
  ) {
    const query = client.from('audit.consent_evidence').where('lead_id', leadId)
    if (publisherId !== null) query.where('publisher_id', publisherId)
    return ((await query.first()) ?? null) as ConsentEvidence | null
  }

  async textFor(digest: string, client: QueryClientContract = db.connection()) {
    return ((await client
      .from('audit.consent_texts')
      .select('digest', 'version', 'text')
      .where('digest', digest)
      .first()) ?? null) as { digest: string; version: number; text: string } | null
  }

  /** The lead's salt; `trx` must be inside the publisher's schema (TenancyService.run). */
  async saltFor(trx: TransactionClientContract, leadId: string) {
    const row = await trx.from('lead_secrets').select('salt').where('lead_id', leadId).first()
    return (row?.salt as Buffer | undefined) ?? null
  }

  /**
   * A wording's version. Wordings are few and never change or go away (the
   * audit schema refuses it), so one seen committed is remembered for the
   * life of the process and costs no round trip again.
   */
  private async versionOf(trx: TransactionClientContract, text: string, digest: string) {
    const known = committedTexts.get(digest)
    if (known !== undefined) return known
    const found = await this.textFor(digest, trx)
    if (found) {
      committedTexts.set(digest, found.version)
      return found.version
    }
    await this.storeText(trx, text, digest)
    return (await this.textFor(digest, trx))!.version
  }

  /**
   * A new wording gets the next version. New wordings are rare, so they queue
   * on one advisory lock (held to the end of the caller's transaction) rather
   * than risk two wordings sharing a version.
   */
  private async storeText(trx: TransactionClientContract, text: string, digest: string) {
    await trx.rawQuery("SELECT pg_advisory_xact_lock(hashtext('leadgate:consent-texts'))")
    await trx.rawQuery(
      `INSERT INTO audit.consent_texts (digest, version, text)
       SELECT ?::char(64), COALESCE(MAX(version), 0) + 1, ?::text FROM audit.consent_texts
       ON CONFLICT (digest) DO NOTHING`,
      [digest, text]
    )
  }
}
