import { uuidv7 } from 'uuidv7'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import type { SendOutcome } from '#services/webhooks/http_sender'
import type { ClaimedDelivery } from '#services/webhooks/delivery_attempt'
import { newSigningSecret } from '#services/webhooks/signing'
import { sealSecret } from '#services/webhooks/secrets'
import { disableEndpoint, enableEndpoint } from '#services/webhooks/endpoint_health'

/**
 * A plugin installation is a webhook endpoint whose transport is an adapter
 * instead of a signed POST (docs/plugins.md). Everything else (the outbox,
 * fan-out, the delivery job, retries, health, the log, replay) is the same
 * machinery; this file is the whole seam the plugin runtime uses.
 */
export type PluginDelivery = {
  deliveryId: string
  endpointId: string
  plugin: string
  attempt: number
  payload: ClaimedDelivery['payload']
}

/** What an adapter's attempt came to; the delivery job records it like an HTTP answer. */
export type PluginResult =
  | { ok: true }
  | {
      ok: false
      error: string
      detail: string
      statusCode?: number | null
      retryAfterMs?: number | null
      timedOut?: boolean
      excerpt?: string | null
    }

export type PluginTransport = (delivery: PluginDelivery) => Promise<PluginResult>

let transport: PluginTransport | null = null

/** The plugin runtime installs itself here at boot; until then plugin deliveries fail and retry. */
export function usePluginTransport(next: PluginTransport | null) {
  transport = next
}

export async function sendThroughPlugin(
  delivery: ClaimedDelivery,
  attempt: number
): Promise<SendOutcome> {
  const started = performance.now()
  let result: PluginResult
  try {
    result = transport
      ? await transport({
          deliveryId: delivery.id,
          endpointId: delivery.endpoint_id,
          plugin: delivery.plugin!,
          attempt,
          payload: delivery.payload,
        })
      : { ok: false, error: 'plugin_unavailable', detail: 'No plugin runtime in this process.' }
  } catch (error) {
    result = {
      ok: false,
      error: 'plugin_error',
      detail: String((error as Error)?.message ?? error),
    }
  }
  return outcomeOf(result, Math.round(performance.now() - started))
}

function outcomeOf(result: PluginResult, latencyMs: number): SendOutcome {
  if (result.ok) {
    return {
      ok: true,
      statusCode: 200,
      timedOut: false,
      retryAfterMs: null,
      latencyMs,
      excerpt: null,
      error: null,
      errorDetail: null,
    }
  }
  return {
    ok: false,
    statusCode: result.statusCode ?? null,
    timedOut: result.timedOut ?? false,
    retryAfterMs: result.retryAfterMs ?? null,
    latencyMs,
    // Postgres text refuses NUL.
    excerpt: result.excerpt?.replaceAll('\u0000', '') ?? null,
    error: result.error,
    errorDetail: result.detail.slice(0, 500),
  }
}

/** The endpoint an installation delivers through: the operator's, kept to one label. */
export async function createPluginEndpoint(
  trx: TransactionClientContract,
  input: {
    labelId: string
    plugin: string
    environment: Environment
    events: string[]
    createdBy: string
  }
) {
  const id = uuidv7()
  const now = new Date()
  await trx.table('webhook_endpoints').insert({
    id,
    owner_type: 'operator',
    environment: input.environment,
    url: `plugin:${input.plugin}`,
    description: `Plugin ${input.plugin}`,
    events: [...new Set(input.events)],
    status: 'enabled',
    fifo: false,
    // The adapter signs nothing; the column wants a secret all the same.
    secret: sealSecret(newSigningSecret()),
    consecutive_failures: 0,
    circuit_trips: 0,
    label_id: input.labelId,
    plugin: input.plugin,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
  })
  return id
}

export async function updatePluginEndpoint(
  trx: TransactionClientContract,
  endpointId: string,
  patch: { events?: string[]; enabled?: boolean }
) {
  const now = new Date()
  if (patch.events) {
    await trx
      .from('webhook_endpoints')
      .where('id', endpointId)
      .update({ events: [...new Set(patch.events)], updated_at: now })
  }
  if (patch.enabled === undefined) return
  const row = await trx.from('webhook_endpoints').where('id', endpointId).select('status').first()
  if (patch.enabled && row?.status === 'disabled') await enableEndpoint(trx, endpointId, now)
  if (!patch.enabled && row && row.status !== 'disabled')
    await disableEndpoint(trx, endpointId, 'manual', now)
}

export async function pluginEndpointStatus(client: QueryClientContract, endpointId: string) {
  return client
    .from('webhook_endpoints')
    .where('id', endpointId)
    .select('status', 'events', 'failing_since', 'last_success_at', 'disabled_reason')
    .first()
}
