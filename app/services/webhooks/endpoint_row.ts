import type { Environment } from '#auth/principal'
import type { OwnerType } from '#models/mixins/with_owner_scope'

/**
 * A `webhook_endpoints` row as the engine's raw queries return it (the
 * model, WebhookEndpoint, is for the API). Fan-out reads whom an endpoint
 * belongs to and what it subscribes to; the health rules read the rest.
 */
export type EndpointRow = {
  id: string
  owner_type: OwnerType
  publisher_id: string | null
  buyer_id: string | null
  environment: Environment
  events: string[]
  url: string
  status: 'enabled' | 'disabled' | 'paused'
  disabled_reason: string | null
  failing_since: Date | null
  last_success_at: Date | null
  circuit_trips: number
  circuit_closed_at: Date | null
  circuit_opened_at: Date | null
}

/**
 * The columns fan-out reads: whom an endpoint belongs to and what it subscribes to.
 * A label's endpoint (a plugin installation) also says which of the events'
 * publishers are that label's; any other endpoint has null there.
 */
export type SubscribedEndpoint = Pick<
  EndpointRow,
  'id' | 'owner_type' | 'publisher_id' | 'buyer_id' | 'environment' | 'events'
> & { label_publishers?: string[] | null }
