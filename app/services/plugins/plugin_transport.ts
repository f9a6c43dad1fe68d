import db from '@adonisjs/lucid/services/db'
import { PluginFailure, type PluginEvent } from '#plugins/contract'
import type { PluginRegistry } from '#services/plugins/plugin_registry'
import LeadService from '#services/leads/lead_service'
import AccessLogService from '#services/access/access_log_service'
import { parseRetryAfter } from '#services/webhooks/retry_policy'
import { type PluginTransport, usePluginTransport } from '#services/webhooks/plugin_endpoints'
import { type InstallationRow, contextFor } from '#services/plugins/plugin_context'

/**
 * The adapters as the webhooks' transport for plugin endpoints: the delivery
 * job claims, calls this instead of a signed POST, and records the outcome,
 * so a plugin's failure is retried, counted in health and logged exactly as
 * a receiver's would be.
 */
export function pluginTransport(
  registry: PluginRegistry,
  services: { leads: LeadService; accessLog: AccessLogService }
): PluginTransport {
  return async (delivery) => {
    const plugin = registry.get(delivery.plugin)
    const installation: InstallationRow | null = await db
      .from('plugin_installations')
      .where('endpoint_id', delivery.endpointId)
      .first()
    if (!plugin || !installation) {
      return { ok: false, error: 'plugin_unavailable', detail: `${delivery.plugin} is not loaded` }
    }
    try {
      await plugin.handle(
        delivery.payload as PluginEvent,
        contextFor(installation, plugin.manifest, services)
      )
      return { ok: true }
    } catch (error) {
      const detail = String((error as Error)?.message ?? error)
      // The SSRF guard refused the settings' address before dialling: the webhooks' own code.
      if ((error as { code?: string })?.code === 'ssrf_refused') {
        return { ok: false, error: 'ssrf_refused', detail }
      }
      if (!(error instanceof PluginFailure)) return { ok: false, error: 'plugin_error', detail }
      const status = error.details.status ?? null
      return {
        ok: false,
        error: status ? `http_${status}` : 'plugin_error',
        detail,
        // A remote 410 says nothing about the installation: only Leadgate disables it.
        statusCode: status === 410 ? 400 : status,
        retryAfterMs: parseRetryAfter(error.details.retryAfter ?? undefined),
        timedOut: status === 408,
        excerpt: error.details.excerpt ?? null,
      }
    }
  }
}

/** Makes the adapters the transport of plugin endpoints in this process. */
export async function installPluginRuntime(
  container: { make<T>(binding: abstract new (...args: any[]) => T): Promise<T> },
  registry: PluginRegistry
) {
  usePluginTransport(
    pluginTransport(registry, {
      leads: await container.make(LeadService),
      accessLog: await container.make(AccessLogService),
    })
  )
}
