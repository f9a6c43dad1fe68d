/** The JSON the integrations pages receive: the API's own shapes (app/transformers). */
export type Page<Row> = { data: Row[]; next_cursor: string | null }

export type OwnerDirectory = {
  publishers: { id: string; name: string }[]
  buyers: { id: string; name: string }[]
}

export type OwnerType = 'operator' | 'publisher' | 'buyer' | 'compliance'

export type Credential = {
  id: string
  name: string
  owner: OwnerType
  publisher_id: string | null
  buyer_id: string | null
  permissions: string[]
  environment: 'live' | 'sandbox'
  allowed_ips: string[]
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
  hint?: string
  client_id?: string
}

export type Endpoint = {
  id: string
  url: string
  description: string | null
  events: string[]
  status: 'enabled' | 'disabled' | 'paused'
  owner: OwnerType
  publisher_id: string | null
  buyer_id: string | null
  environment: 'live' | 'sandbox'
  disabled_reason: 'manual' | 'gone' | 'failing' | null
  disabled_at: string | null
  paused_until: string | null
  failing_since: string | null
  last_success_at: string | null
  previous_secret_expires_at: string | null
  created_at: string
  owner_name?: string | null
}

export type Delivery = {
  id: string
  event_id: string
  type: string
  status: 'pending' | 'succeeded' | 'failed' | 'exhausted'
  attempts: number
  next_attempt_at: string | null
  last_response_status: number | null
  last_error: string | null
  event_created_at: string | null
  created_at: string
}

/** "Publisher Acme" for the operator's owner columns; the platform's own is "Operator". */
export function ownerLabel(
  row: { owner: OwnerType; publisher_id: string | null; buyer_id: string | null },
  owners: OwnerDirectory | null
) {
  if (row.owner !== 'publisher' && row.owner !== 'buyer') {
    return row.owner === 'operator' ? 'Operator' : 'Compliance (auditor)'
  }
  const list = row.owner === 'publisher' ? owners?.publishers : owners?.buyers
  const id = row.owner === 'publisher' ? row.publisher_id : row.buyer_id
  const name = list?.find((owner) => owner.id === id)?.name
  return `${row.owner === 'publisher' ? 'Publisher' : 'Buyer'} ${name ?? id ?? ''}`.trim()
}
