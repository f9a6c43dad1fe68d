import { uuidv7 } from 'uuidv7'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Label from '#models/label'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { PluginRegistry } from '#services/plugins/plugin_registry'
import type { LeadgatePlugin } from '#plugins/contract'
import LeadService from '#services/leads/lead_service'
import AccessLogService from '#services/access/access_log_service'
import WebhookDeliveryService, { type DeliveryFilters } from '#services/webhooks/delivery_service'
import {
  createPluginEndpoint,
  pluginEndpointStatus,
  updatePluginEndpoint,
} from '#services/webhooks/plugin_endpoints'
import { transaction } from '#services/sql/transaction'
import { type InstallationRow, contextFor } from '#services/plugins/plugin_context'
import {
  sealSecrets,
  openSecrets,
  secretNames,
  splitSecrets,
  validateSettings,
} from '#services/plugins/plugin_settings'

export type InstallInput = {
  plugin: string
  events?: string[]
  settings?: Record<string, unknown>
  enabled?: boolean
}
export type InstallPatch = Omit<InstallInput, 'plugin'>

/**
 * Plugins enabled per label by the operator. An installation delivers through
 * a webhook endpoint of its own (webhooks/plugin_endpoints.ts), in the
 * environment of the credential that enabled it.
 */
@inject()
export default class PluginService {
  constructor(
    protected registry: PluginRegistry,
    protected leads: LeadService,
    protected accessLog: AccessLogService,
    protected deliveries: WebhookDeliveryService
  ) {}

  available() {
    return { data: this.registry.list(), broken: this.registry.broken }
  }

  /** A label is the operator's: to anyone else it does not exist. */
  async label(principal: Principal, id: string) {
    const label = principal.isOperator ? await Label.find(id) : null
    if (!label) throw ApiProblem.notFound('label')
    return label
  }

  async list(principal: Principal, labelId: string) {
    await this.label(principal, labelId)
    return db
      .from('plugin_installations')
      .where('label_id', labelId)
      .where('environment', principal.environment)
      .orderBy('plugin') as Promise<InstallationRow[]>
  }

  /** By the plugin's name or the installation's id. */
  async find(principal: Principal, labelId: string, name: string): Promise<InstallationRow> {
    await this.label(principal, labelId)
    const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(name)
    const row = await db
      .from('plugin_installations')
      .where({ label_id: labelId, environment: principal.environment })
      .where(byId ? 'id' : 'plugin', name)
      .first()
    if (!row) throw ApiProblem.notFound('plugin installation')
    return row
  }

  async install(principal: Principal, labelId: string, input: InstallInput) {
    const label = await this.label(principal, labelId)
    const plugin = this.pluginNamed(input.plugin)
    const events = this.checkEvents(
      plugin,
      input.events ?? plugin.manifest.defaultEvents ?? plugin.manifest.events
    )
    const settings = await validateSettings(plugin.manifest, input.settings ?? {}, true)
    const { plain, secrets } = splitSecrets(plugin.manifest, settings)
    const taken = await db
      .from('plugin_installations')
      .where({ label_id: label.id, plugin: input.plugin, environment: principal.environment })
      .first()
    if (taken) {
      throw ApiProblem.conflict(
        'already_installed',
        `${input.plugin} is already enabled for this label.`,
        {
          field: 'plugin',
        }
      )
    }
    const id = uuidv7()
    await transaction(async (trx) => {
      const endpointId = await createPluginEndpoint(trx, {
        labelId: label.id,
        plugin: input.plugin,
        environment: principal.environment,
        events,
        createdBy: principal.actor,
      })
      if (input.enabled === false) await updatePluginEndpoint(trx, endpointId, { enabled: false })
      const now = new Date()
      await trx.table('plugin_installations').insert({
        id,
        label_id: label.id,
        plugin: input.plugin,
        environment: principal.environment,
        endpoint_id: endpointId,
        settings: JSON.stringify(plain),
        secrets: sealSecrets(secrets),
        created_by: principal.actor,
        created_at: now,
        updated_at: now,
      })
      await this.log(principal, 'plugin.installed', label.id, id, trx, {
        plugin: input.plugin,
        events,
      })
    })
    return this.find(principal, label.id, input.plugin)
  }

  /** Settings merge into the stored ones; a secret left out keeps its value. */
  async update(principal: Principal, installation: InstallationRow, patch: InstallPatch) {
    const plugin = this.pluginNamed(installation.plugin)
    const events = patch.events ? this.checkEvents(plugin, patch.events) : undefined
    const changes = await validateSettings(plugin.manifest, patch.settings ?? {}, false)
    const { plain, secrets } = splitSecrets(plugin.manifest, changes)
    await transaction(async (trx) => {
      await updatePluginEndpoint(trx, installation.endpoint_id, { events, enabled: patch.enabled })
      await trx
        .from('plugin_installations')
        .where('id', installation.id)
        .update({
          settings: JSON.stringify({ ...installation.settings, ...plain }),
          secrets: sealSecrets({ ...openSecrets(installation.secrets), ...secrets }),
          updated_at: new Date(),
        })
      await this.log(principal, 'plugin.updated', installation.label_id, installation.id, trx, {
        plugin: installation.plugin,
        fields: Object.keys(patch),
      })
    })
    return this.find(principal, installation.label_id, installation.plugin)
  }

  /** The installation goes with its endpoint (deliveries and their log too); events stay in the outbox. */
  async remove(principal: Principal, installation: InstallationRow) {
    await transaction(async (trx) => {
      await trx.from('webhook_endpoints').where('id', installation.endpoint_id).delete()
      await this.log(principal, 'plugin.removed', installation.label_id, installation.id, trx, {
        plugin: installation.plugin,
      })
    })
  }

  deliveryLog(principal: Principal, installation: InstallationRow, filters: DeliveryFilters) {
    return this.deliveries.list(principal, { ...filters, endpoint_id: installation.endpoint_id })
  }

  /** What the label's plugins wrote back about a lead: the remote record and when. */
  async syncsOf(principal: Principal, leadId: string) {
    await this.leads.visiblePublisherId(principal, leadId)
    const rows = await db
      .from('plugin_lead_syncs as s')
      .join('plugin_installations as i', 'i.id', 's.installation_id')
      .where('s.lead_id', leadId)
      .where('i.environment', principal.environment)
      .orderBy('s.synced_at', 'desc')
      .select('s.plugin', 's.external_id', 's.synced_at')
    return rows.map((row) => ({
      plugin: row.plugin as string,
      external_id: row.external_id as string,
      synced_at: new Date(row.synced_at).toISOString(),
    }))
  }

  /** Asks the adapter to reach its remote system with these settings; nothing is written there. */
  async testConnection(installation: InstallationRow) {
    const plugin = this.pluginNamed(installation.plugin)
    if (!plugin.testConnection)
      return { ok: true, detail: 'This plugin has nothing to connect to.' }
    const context = contextFor(installation, plugin.manifest, {
      leads: this.leads,
      accessLog: this.accessLog,
    })
    try {
      return await plugin.testConnection(context)
    } catch (error) {
      return { ok: false, detail: String((error as Error)?.message ?? error).slice(0, 500) }
    }
  }

  async toJson(installation: InstallationRow) {
    const plugin = this.registry.get(installation.plugin)
    const endpoint = await pluginEndpointStatus(db.connection(), installation.endpoint_id)
    const stored = Object.keys(openSecrets(installation.secrets))
    return {
      id: installation.id,
      label_id: installation.label_id,
      plugin: installation.plugin,
      version: plugin?.manifest.version ?? null,
      environment: installation.environment,
      status: endpoint?.status ?? 'disabled',
      events: endpoint?.events ?? [],
      settings: installation.settings,
      secrets_set: plugin
        ? secretNames(plugin.manifest).filter((key) => stored.includes(key))
        : stored,
      health: {
        failing_since: endpoint?.failing_since ?? null,
        last_success_at: endpoint?.last_success_at ?? null,
        disabled_reason: endpoint?.disabled_reason ?? null,
      },
      created_at: new Date(installation.created_at).toISOString(),
      updated_at: new Date(installation.updated_at).toISOString(),
    }
  }

  private pluginNamed(name: string): LeadgatePlugin {
    const plugin = this.registry.get(name)
    if (!plugin) {
      throw ApiProblem.unprocessable([
        { field: 'plugin', code: 'unknown_plugin', message: `No plugin is named "${name}".` },
      ])
    }
    return plugin
  }

  private checkEvents(plugin: LeadgatePlugin, events: string[]) {
    // Only an inbound-only plugin (it handles no event) subscribes to none.
    if (events.length === 0 && plugin.manifest.events.length > 0) {
      throw ApiProblem.unprocessable([
        { field: 'events', code: 'minLength', message: 'Choose at least one event.' },
      ])
    }
    const errors = events.flatMap((type, index) =>
      plugin.manifest.events.includes(type)
        ? []
        : [
            {
              field: `events.${index}`,
              code: 'event_not_handled',
              message: `${plugin.manifest.name} does not handle ${type}.`,
            },
          ]
    )
    if (errors.length > 0) throw ApiProblem.unprocessable(errors)
    return events
  }

  private async log(
    principal: Principal,
    action: string,
    labelId: string,
    installationId: string,
    trx: TransactionClientContract,
    details: Record<string, unknown>
  ) {
    await this.accessLog.record(
      principal.actor,
      action,
      { type: 'plugin_installation', id: installationId },
      { details: { label_id: labelId, environment: principal.environment, ...details }, trx }
    )
  }
}
