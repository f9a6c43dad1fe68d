import type Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import type { Evaluation, LeadInput } from '#services/quality/types'
import type { OutboxEvent } from '#services/webhooks/outbox_service'
import type { AppendInput } from '#services/audit/audit_chain_service'
import {
  type EvidenceInput,
  type EvidenceRow,
  evidencePage,
} from '#services/audit/consent_evidence_service'
import { type Column, insertRows } from '#services/sql/insert_together'
import { fingerprintsOf } from '#services/scrubbing/fingerprints'

/** A lead whose outcome intake has decided, about to be written. */
export type DecidedLead = {
  leadId: string
  publisher: Publisher
  principal: Principal
  input: LeadInput
  evaluation: Evaluation
  submission: { channel: string; consentMethod: EvidenceInput['method'] }
  now: Date
  /** When the request reached intake (performance.now()), for the facts' processing time. */
  started: number
}

/** A group's rows, table by table, written with one INSERT each. */
export type GroupRows = {
  leads: Record<string, unknown>[]
  secrets: { lead_id: string; salt: Buffer }[]
  facts: Record<string, unknown>[]
  trails: AppendInput[]
  evidence: EvidenceRow[]
  events: OutboxEvent[]
  fingerprints: Record<string, unknown>[]
}

const FINGERPRINT_COLUMNS: Column[] = [
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['environment', 'text'],
  ['kind', 'text'],
  ['digest', 'text'],
  ['created_at', 'timestamptz'],
]

const LEAD_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['environment', 'text'],
  ['channel', 'text'],
  ['status', 'text'],
  ['contact', 'jsonb'],
  ['provenance', 'jsonb'],
  ['consent', 'jsonb'],
  ['attributes', 'jsonb'],
  ['quality_check', 'jsonb'],
  ['reasons', 'jsonb'],
  ['email_key', 'text'],
  ['phone_key', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
]
const SECRET_COLUMNS: Column[] = [
  ['lead_id', 'uuid'],
  ['salt', 'bytea'],
]
const FACT_COLUMNS: Column[] = [
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['label_id', 'uuid'],
  ['channel', 'text'],
  ['environment', 'text'],
  ['status', 'text'],
  ['reason_codes', 'text[]'],
  ['processing_ms', 'int'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
]

export function emptyGroupRows(): GroupRows {
  return {
    leads: [],
    secrets: [],
    facts: [],
    trails: [],
    evidence: [],
    events: [],
    fingerprints: [],
  }
}

/** The group's leads and salts (its schema) and facts (lead_facts), one INSERT each. */
export function leadInserts(rows: GroupRows) {
  return [
    insertRows('leads', LEAD_COLUMNS, rows.leads),
    ...(rows.secrets.length ? [insertRows('lead_secrets', SECRET_COLUMNS, rows.secrets)] : []),
    insertRows('public.lead_facts', FACT_COLUMNS, rows.facts),
    ...(rows.fingerprints.length
      ? [insertRows('public.lead_fingerprints', FINGERPRINT_COLUMNS, rows.fingerprints)]
      : []),
  ]
}

function consentOf(input: LeadInput) {
  return {
    given: input.consent?.given ?? false,
    text: input.consent?.text ?? null,
    timestamp: input.consent?.timestamp ? new Date(input.consent.timestamp).toISOString() : null,
    ip: input.consent?.ip ?? null,
    ...(input.consent?.version_id ? { version_id: input.consent.version_id } : {}),
  }
}

function provenanceOf(input: LeadInput) {
  return {
    source: input.provenance?.source ?? null,
    campaign: input.provenance?.campaign ?? null,
    landing_page: input.provenance?.landing_page ?? null,
  }
}

/** What the consent evidence of a lead with valid consent commits to; null without valid consent. */
export function validConsentOf(lead: DecidedLead): EvidenceInput | null {
  const { leadId, publisher, input, evaluation, submission } = lead
  // Valid consent has its text and timestamp: the quality check saw to that.
  if (evaluation.quality_check.consent !== 'valid' || !input.consent) return null
  return {
    leadId,
    publisherId: publisher.id,
    text: input.consent.text!,
    method: submission.consentMethod,
    pageUrl: evidencePage(input.provenance?.landing_page),
    consentedAt: new Date(input.consent.timestamp!),
    ip: evaluation.normalised.ip,
    email: evaluation.normalised.email,
    phone: evaluation.normalised.phone,
  }
}

/**
 * Adds the lead's rows to its group's: lead, salt and consent evidence (when
 * consent is valid), facts, audit trail and events.
 */
export function addLeadRows(
  rows: GroupRows,
  lead: DecidedLead,
  evidence: { row: EvidenceRow; salt: Buffer } | null
) {
  const { leadId, publisher, principal, input, evaluation, submission, now } = lead
  const environment = principal.environment
  const consent = consentOf(input)
  const provenance = provenanceOf(input)

  if (evidence) {
    rows.evidence.push(evidence.row)
    rows.secrets.push({ lead_id: leadId, salt: evidence.salt })
  }

  const actor = principal.actor
  const statusAfterConsent = evidence ? 'consented' : 'received'
  // Events go out once first validation has passed: a rejected lead sends none.
  const label = publisher.label?.slug ?? null
  if (evaluation.outcome !== 'rejected') {
    // The consumer, as the platform recognises it again: keyed digests, never the values.
    for (const print of fingerprintsOf(evaluation.normalised)) {
      rows.fingerprints.push({
        lead_id: leadId,
        publisher_id: publisher.id,
        environment,
        kind: print.kind,
        digest: print.digest,
        created_at: now,
      })
    }
    rows.events.push(
      {
        type: 'lead.received',
        publisherId: publisher.id,
        leadId,
        environment,
        data: {
          lead_id: leadId,
          publisher: publisher.slug,
          status: evaluation.outcome,
          provenance: { ...provenance, label },
          consent: { given: consent.given, timestamp: consent.timestamp },
        },
      },
      {
        type: 'consent.recorded',
        publisherId: publisher.id,
        leadId,
        environment,
        data: {
          lead_id: leadId,
          provenance: { source: provenance.source, campaign: provenance.campaign, label },
          consent: {
            given: consent.given,
            text: consent.text,
            timestamp: consent.timestamp,
            ip: consent.ip,
          },
        },
      }
    )
  }

  rows.leads.push({
    id: leadId,
    publisher_id: publisher.id,
    environment,
    channel: submission.channel,
    status: evaluation.outcome,
    contact: JSON.stringify({
      ...input.contact,
      email: evaluation.normalised.email ?? input.contact.email ?? null,
      phone: evaluation.normalised.phone ?? input.contact.phone ?? null,
      country: evaluation.normalised.country,
    }),
    provenance: JSON.stringify(provenance),
    consent: JSON.stringify(consent),
    attributes: JSON.stringify(input.attributes ?? {}),
    quality_check: JSON.stringify(evaluation.quality_check),
    reasons: JSON.stringify(evaluation.reasons),
    email_key: evaluation.normalised.email,
    phone_key: evaluation.normalised.phone,
    created_at: now,
    updated_at: now,
  })
  rows.facts.push({
    lead_id: leadId,
    publisher_id: publisher.id,
    label_id: publisher.labelId,
    channel: submission.channel,
    environment,
    status: evaluation.outcome,
    reason_codes: evaluation.reasons.map((reason) => reason.code),
    processing_ms: Math.round(performance.now() - lead.started),
    created_at: now,
    updated_at: now,
  })
  rows.trails.push({
    publisherId: publisher.id,
    leadId,
    environment,
    entries: [
      { event: 'lead.received', actor, statusFrom: null, statusTo: 'received' },
      ...(evidence
        ? [{ event: 'consent.captured', actor, statusFrom: 'received', statusTo: 'consented' }]
        : []),
      {
        event: 'lead.validated',
        actor: 'rule:quality',
        statusFrom: statusAfterConsent,
        statusTo: 'validated',
      },
      {
        event: `lead.${evaluation.outcome}`,
        actor: 'rule:quality',
        statusFrom: 'validated',
        statusTo: evaluation.outcome,
      },
    ],
  })
}
