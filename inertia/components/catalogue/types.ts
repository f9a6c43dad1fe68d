/** The catalogue's JSON as the portal controllers hand it to the pages (the API's, plus figures). */

export type Choice = { value: string; label: string }

export type Criterion = { field: string; op: string; value?: unknown }

export type WeeklySchedule = {
  timezone: string
  windows: { days: string[]; from: string; to: string }[]
}

export type RoutingRule = {
  id: string
  buyer_id: string
  environment: 'live' | 'sandbox'
  labels: string[]
  publishers: string[]
  criteria: Criterion[]
  price_cents: number
  payout_cents: number
  currency: string
  caps: { daily?: number; monthly?: number }
  schedule: WeeklySchedule | null
  priority: number
  weight: number
  enabled: boolean
}

export type CapReading = { used: number; limit: number }

export type RoutingRuleRow = RoutingRule & {
  usage: { daily?: CapReading; monthly?: CapReading }
  schedule_text: string
  criteria_text: string[]
}

/** Names for the ids and slugs a page of rules mentions. */
export type RuleReferences = {
  buyers: Record<string, { name: string; status: string }>
  labels: Record<string, string>
  publishers: Record<string, string>
}

export type Buyer = {
  id: string
  name: string
  contact_email: string
  status: 'active' | 'paused'
  created_at: string
  leads_today: number
  routing_rules: number
}

export type Label = {
  id: string
  slug: string
  name: string
  branding: { logo_url?: string; primary_color?: string }
  custom_host: string | null
  created_at: string
}
