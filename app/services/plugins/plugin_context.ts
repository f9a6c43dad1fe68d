import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import locks from '@adonisjs/lock/services/main'
import Principal from '#auth/principal'
import { PluginFailure, type PluginContext, type PluginManifest } from '#plugins/contract'
import type LeadService from '#services/leads/lead_service'
import type AccessLogService from '#services/access/access_log_service'
import { pluginHttp } from '#services/plugins/plugin_http'
import { openSecrets, withDefaults } from '#services/plugins/plugin_settings'

/** A `plugin_installations` row. */
export type InstallationRow = {
  id: string
  label_id: string
  plugin: string
  environment: 'live' | 'sandbox'
  endpoint_id: string
  settings: Record<string, unknown>
  secrets: string | null
  created_by: string
  created_at: Date
  updated_at: Date
}

/**
 * How long `exclusive` holds its lock at most, and how long another delivery waits for it. Vendor
 * calls time out after 10 s (plugin_http.ts), so a find-then-create of a few calls ends well
 * inside the lease; only a holder that died keeps the lock this long.
 */
const EXCLUSIVE_LEASE_MS = 60_000
const EXCLUSIVE_WAIT_MS = 30_000

/**
 * `PluginContext.exclusive` for one installation (or one buyer's CRM destination): a Redis lock
 * per `scope` and hashed key, so personal data in the key is never stored.
 */
export function exclusiveWithin(scope: string): PluginContext['exclusive'] {
  return async (key, work) => {
    const digest = createHash('sha256').update(key).digest('base64url')
    const lock = locks.createLock(`${scope}:${digest}`, EXCLUSIVE_LEASE_MS)
    const acquired = await lock.acquire({ retry: { delay: 50, timeout: EXCLUSIVE_WAIT_MS } })
    if (!acquired)
      throw new PluginFailure('Another delivery of this installation held the same record too long')
    try {
      return await work()
    } finally {
      // A lock not released (Redis gone) lapses with its lease.
      await lock.release().catch(() => {})
    }
  }
}

/** The typed actor a plugin acts as in the access log and audit trail. */
export function pluginActor(name: string) {
  return `system:plugin-${name}`
}

/** The plugin reads leads as the operator would, in its installation's environment. */
function pluginPrincipal(installation: InstallationRow) {
  return new Principal(
    'operator',
    new Set(['read']),
    installation.environment,
    pluginActor(installation.plugin)
  )
}

/**
 * What an adapter gets besides the event: its settings (secrets opened), the
 * HTTP client for its remote, its label's leads and nobody else's, and the
 * write-back of what it synced.
 */
export function contextFor(
  installation: InstallationRow,
  manifest: PluginManifest,
  services: { leads: LeadService; accessLog: AccessLogService }
): PluginContext {
  const actor = pluginActor(installation.plugin)
  const ownFact = (leadId: string) =>
    db
      .from('lead_facts')
      .where('lead_id', leadId)
      .where('label_id', installation.label_id)
      .where('environment', installation.environment)
      .select('publisher_id')
      .first()
  return {
    settings: withDefaults(manifest, {
      ...installation.settings,
      ...openSecrets(installation.secrets),
    }),
    http: pluginHttp,
    labelId: installation.label_id,
    environment: installation.environment,
    async lead(leadId) {
      if (!(await ownFact(leadId))) return null
      return (await services.leads.findVisible(pluginPrincipal(installation), leadId)) as any
    },
    async previousSync(leadId) {
      const row = await db
        .from('plugin_lead_syncs')
        .where('installation_id', installation.id)
        .where('lead_id', leadId)
        .first()
      return row ? { externalId: row.external_id, details: row.details } : null
    },
    async recordSync(leadId, externalId, details = {}) {
      const fact = await ownFact(leadId)
      if (!fact) return
      const now = new Date()
      await db
        .knexQuery()
        .table('plugin_lead_syncs')
        .insert({
          installation_id: installation.id,
          lead_id: leadId,
          plugin: installation.plugin,
          external_id: externalId,
          details: JSON.stringify(details),
          synced_at: now,
        })
        .onConflict(['installation_id', 'lead_id'])
        .merge(['external_id', 'details', 'synced_at'])
      // Ids and the remote record's id only: never the contact it carried.
      await services.accessLog.record(
        actor,
        'plugin.synced',
        { type: 'lead', id: leadId, publisherId: fact.publisher_id },
        { details: { plugin: installation.plugin, external_id: externalId } }
      )
    },
    exclusive: exclusiveWithin(`plugin:${installation.id}`),
  }
}
