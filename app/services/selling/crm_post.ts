import app from '@adonisjs/core/services/app'
import { PluginFailure, type PluginContext } from '#plugins/contract'
import { PluginRegistry } from '#services/plugins/plugin_registry'
import { pluginHttp } from '#services/plugins/plugin_http'
import { exclusiveWithin } from '#services/plugins/plugin_context'
import { withDefaults } from '#services/plugins/plugin_settings'
import type { PostAnswer, SaleOffer } from '#services/routing/routing_service'
import type { LoadedDestination } from '#services/selling/destination_store'
import { postAnswer } from '#services/selling/post_answer'

/**
 * A `crm` destination (docs/selling.md): the buyer's own HubSpot, Salesforce or Pipedrive,
 * through the same adapter a label installs, with the buyer's settings. The adapter gets the
 * lead as the buyer receives it (`match.found`'s body) and nobody else's; the record it makes
 * is the buyer's lead id. The adapter finishing is the buyer taking the lead; a failure (the
 * vendor refused, timed out) is an `error`, and the sale moves on.
 */
export async function postToCrm(
  destination: LoadedDestination,
  offer: SaleOffer
): Promise<PostAnswer> {
  const started = performance.now()
  const registry = await app.container.make(PluginRegistry)
  const name = String(destination.config.crm?.plugin ?? '')
  const plugin = registry.get(name)
  const request = { plugin: name, event: 'match.found' }
  if (!plugin) return postAnswer('error', 'plugin_unavailable', started, { request })
  let recorded: string | null = null
  const context: PluginContext = {
    settings: withDefaults(plugin.manifest, {
      ...(destination.config.crm?.settings ?? {}),
      ...destination.secrets,
    }),
    http: pluginHttp,
    labelId: offer.labelId ?? '',
    environment: offer.environment,
    async lead(leadId) {
      return leadId === offer.leadId ? { ...offer.lead, id: offer.leadId } : null
    },
    async previousSync() {
      return null
    },
    async recordSync(leadId, externalId) {
      if (leadId === offer.leadId) recorded = externalId
    },
    exclusive: exclusiveWithin(`destination:${destination.id}`),
  }
  try {
    await plugin.handle(
      {
        event_id: offer.attemptId,
        type: 'match.found',
        created: offer.at.toISOString(),
        data: offer.lead,
      },
      context
    )
    return postAnswer('accepted', null, started, { request, buyerLeadId: recorded })
  } catch (error) {
    const status = error instanceof PluginFailure ? (error.details.status ?? null) : null
    const excerpt = error instanceof PluginFailure ? (error.details.excerpt ?? null) : null
    return postAnswer('error', status ? `http_${status}` : 'crm_failed', started, {
      request,
      httpStatus: status,
      responseExcerpt: excerpt ?? String((error as Error)?.message ?? error).slice(0, 2000),
    })
  }
}
