import type { Choice } from '~/components/catalogue/types'

/** A lead as GET /v1/leads/{id} shows it to the reader; routing fields depend on who reads. */
export type Reason = { code: string; field?: string; action: string; message: string | null }

export type LeadRouting =
  | {
      buyer_id: string
      rule_id: string
      price_cents: number
      payout_cents: number
      currency: string
      matched_at: string
    }
  | { unsold_reason: string | null; routed_at: string | null }
  | null

export type Lead = {
  id: string
  publisher: string | null
  status: string
  environment: string
  channel: string
  contact: { [field: string]: string | null | undefined }
  provenance: { [field: string]: string | null | undefined }
  consent: { [field: string]: string | boolean | null | undefined }
  attributes: { [field: string]: string | number | boolean | null | undefined } | null
  quality_check: { consent?: string; target_audience?: string; duplicate?: boolean }
  reasons: Reason[]
  created_at: string
  review?: {
    decision: string
    reason: string | null
    reviewed_at: string
    reviewer?: string
  } | null
  buyer_id?: string | null
  price_cents?: number | null
  payout_cents?: number | null
  currency?: string | null
  unsold_reason?: string | null
  routing?: LeadRouting
}

export type LeadChoices = { publishers: Choice[]; labels: Choice[]; buyers: Choice[] }
export type Audience = 'operator' | 'publisher' | 'buyer'

export type ConsentEvidence = {
  method: string
  text: string | null
  text_version: number
  text_digest: string
  page_url: string | null
  consented_at: string
  ip_commitment: string | null
  email_commitment: string | null
  phone_commitment: string | null
}

export type TrailEvent = {
  event: string
  ts: string
  actor: string
  actor_name: string | null
  lead_seq: number
  status_from: string | null
  status_to: string
  prev_hash: string
  hash: string
}

export type LeadDelivery = {
  id: string
  endpoint_url: string | null
  type: string
  status: string
  attempts: number
  last_attempt_at: string | null
  last_response_status: number | null
  next_attempt_at: string | null
}

export type Verification = {
  valid: boolean
  entries: number
  broken_at: { lead_seq: number; reason: string } | null
}

/** A call attached to the lead (`GET /v1/leads/{id}/calls`). */
export type LeadCall = {
  id: string
  vendor: string
  vendor_call_id: string
  status: 'attached' | 'unmatched' | 'ambiguous'
  matched_by: 'lead_id' | 'phone' | null
  started_at: string
  duration_seconds: number | null
  disposition: string | null
  recording_url: string | null
  campaign: string | null
}
