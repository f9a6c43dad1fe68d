import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import moneyConfig from '#config/money'
import type AuditChainService from '#services/audit/audit_chain_service'
import { type ChainHead, findBreak } from '#services/audit/audit_chain_service'
import type ConsentEvidenceService from '#services/audit/consent_evidence_service'
import { commitmentsMatch, textDigest } from '#services/audit/consent_evidence_service'
import { isBlank } from '#services/quality/fields'
import { normaliseIp } from '#services/quality/normalise'
import type { QualityRules } from '#services/quality/quality_rules'

/** Why a buyer returns a lead: a fixed list; `other` needs the buyer's details. */
export const DISPUTE_REASONS = [
  'invalid_contact',
  'duplicate',
  'outside_target_audience',
  'consent_disputed',
  'fraud',
  'other',
] as const
export type DisputeReason = (typeof DISPUTE_REASONS)[number]

/** `open → responded → upheld | rejected`, or `withdrawn` by the buyer while open or responded. */
export const DISPUTE_STATUSES = ['open', 'responded', 'upheld', 'rejected', 'withdrawn'] as const
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number]
export const OPEN_STATUSES: readonly DisputeStatus[] = ['open', 'responded']

export type DisputeOutcome = 'upheld' | 'rejected'

/** The actors of what the rules decide, as the audit trail and `decided_by` name them. */
export const RULE = {
  consentProof: 'rule:consent_proof',
  duplicate: 'rule:duplicate',
  noResponse: 'rule:no_response',
  defaultOutcome: 'rule:default_outcome',
} as const

/** A disputed lead as its lock reads it from the publisher's schema. */
export type DisputedLead = {
  id: string
  publisher_id: string
  status: string
  environment: string
  consent: { text?: string | null; ip?: string | null } | null
  email_key: string | null
  phone_key: string | null
  created_at: Date
}

const DAY_MS = 86_400_000

/**
 * Whether the lead's consent proof checks out: its trail recomputes from the first entry to the
 * chain head the caller holds locked (what GET /v1/audit-logs/verify recomputes), consent was
 * captured on it, and the consent evidence commits to this lead's own wording, IP, e-mail and
 * phone under its salt. A lead whose salt is gone (erased) cannot be linked to its evidence any
 * more, so the rule does not decide it: people do.
 */
export async function consentProofVerifies(
  trx: TransactionClientContract,
  lead: DisputedLead,
  head: ChainHead,
  services: { audit: AuditChainService; evidence: ConsentEvidenceService }
) {
  const evidence = await services.evidence.evidenceFor(lead.publisher_id, lead.id, trx)
  if (!evidence) return false
  const entries = await services.audit.entriesFor(lead.publisher_id, lead.id, trx)
  if (findBreak(entries, head) !== null) return false
  if (!entries.some((entry) => entry.event === 'consent.captured')) return false
  const text = lead.consent?.text
  if (typeof text !== 'string' || textDigest(text) !== evidence.text_digest) return false
  const salt = await services.evidence.saltFor(trx, lead.id)
  if (!salt) return false
  const ip = lead.consent?.ip
  return commitmentsMatch(
    salt,
    {
      ip: isBlank(ip) ? null : normaliseIp(ip!),
      email: lead.email_key,
      phone: lead.phone_key,
    },
    evidence
  )
}

/**
 * Whether the platform confirms a `duplicate`: an earlier lead of the same environment, not
 * itself rejected, with the same normalised e-mail or phone, inside the publisher's duplicate
 * window (30 days when its rules set none): of the same publisher (in its schema), or of any
 * other (by fingerprint, DESIGN §15).
 */
export async function duplicateConfirmed(
  trx: TransactionClientContract,
  lead: DisputedLead,
  rules: QualityRules | null
) {
  const keys: [string, string][] = []
  if (lead.email_key) keys.push(['email_key', lead.email_key])
  if (lead.phone_key) keys.push(['phone_key', lead.phone_key])
  if (keys.length === 0) return false
  const days = rules?.duplicates?.window_days ?? moneyConfig.disputes.duplicateWindowDays
  const createdAt = new Date(lead.created_at)
  const since = new Date(createdAt.getTime() - days * DAY_MS)
  const result = await trx.rawQuery(
    `SELECT 1 FROM leads l
      WHERE l.environment = ? AND l.status <> 'rejected' AND l.id <> ?
        AND l.created_at >= ? AND (l.created_at < ? OR (l.created_at = ? AND l.id < ?))
        AND (${keys.map(([column]) => `l.${column} = ?`).join(' OR ')})
      LIMIT 1`,
    [
      lead.environment,
      lead.id,
      since,
      createdAt,
      createdAt,
      lead.id,
      ...keys.map(([, value]) => value),
    ]
  )
  if (result.rows.length > 0) return true
  // Or the same consumer from another publisher, first, inside the window: by fingerprint.
  const elsewhere = await trx.rawQuery(
    `SELECT 1 FROM public.lead_fingerprints mine
       JOIN public.lead_fingerprints other
         ON other.digest = mine.digest AND other.environment = mine.environment
        AND other.lead_id <> mine.lead_id AND other.publisher_id <> mine.publisher_id
      WHERE mine.lead_id = ? AND other.created_at >= ? AND other.created_at < ?
      LIMIT 1`,
    [lead.id, since, createdAt]
  )
  return elsewhere.rows.length > 0
}
