/** A publisher as the API's JSON shows it (app/transformers/publisher_transformer.ts). */
export type Onboarding = {
  step: string
  rules_version: number
  rules_confirmed_at: string | null
  sandbox_leads: number
  go_live_requested_at: string | null
  went_live_at: string | null
}

export type Publisher = {
  id: string
  slug: string
  name: string
  label: string | null
  status: 'invited' | 'live' | 'paused'
  onboarding: Onboarding
  contact_email: string
  country: string
  delivery_methods: string[]
  created_at: string
  updated_at: string
}

/** Today's figures from lead_facts (UTC day); the rate is accepted ÷ decided, null before the first. */
export type LeadFigures = {
  today: number
  accepted_today: number
  rejected_today: number
  flagged_waiting: number
  acceptance_rate: number | null
}

export type PublisherRow = Publisher & { leads: LeadFigures }

export type RuleAction = 'reject' | 'flag'

/** The rules document as GET /v1/publishers/{id}/quality-rules answers it. */
export type QualityRules = {
  required_fields?: string[]
  postal_code?: { required: boolean; action: RuleAction }
  phone?: { action: RuleAction }
  email?: { action: RuleAction }
  consent?: { required: true; action: RuleAction; max_age_days?: number }
  target_audience?: { field: string; op: string; value?: unknown; action?: RuleAction }[]
  duplicates?: { window_days: number; keys: string[]; action: RuleAction }
}

export type PreviewOutcome = {
  outcome: 'accepted' | 'flagged' | 'rejected'
  quality_check: { consent: string; target_audience: string; duplicate: boolean }
  reasons: { code: string; field?: string; action: RuleAction; message: string }[]
}
