import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Buyer from '#models/buyer'
import Destination, { type DestinationKind } from '#models/destination'
import RoutingRule from '#models/routing_rule'
import type Principal from '#auth/principal'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { PluginRegistry } from '#services/plugins/plugin_registry'
import { splitSecrets, validateSettings } from '#services/plugins/plugin_settings'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { transaction } from '#services/sql/transaction'
import { newSigningSecret } from '#services/webhooks/signing'
import { sealSecret } from '#services/webhooks/secrets'
import {
  openDestinationSecrets,
  sealDestinationSecrets,
} from '#services/selling/destination_secrets'
import { destinationProblems } from '#services/selling/destination_problems'
import {
  type HttpDestinationInput,
  SECRET_FIELD,
  separateSecrets,
} from '#services/selling/http_destination'
import { forgetDestination } from '#services/selling/destination_store'

export type DestinationInput = {
  name: string
  kind: DestinationKind
  http?: HttpDestinationInput
  email?: { to: string }
  crm?: { plugin: string; settings: Record<string, unknown> }
}
export type DestinationPatch = Partial<Omit<DestinationInput, 'kind'>>

/** A kind's settings in the body, and the kind they belong to. */
const KIND_FIELDS = { http: 'http', email: 'email', crm: 'crm' } as const

/**
 * A buyer's destinations (API.md, "Selling"): the operator manages any buyer's, a buyer its own
 * (another buyer's answers 404, as the buyer itself does). Every kind's settings are checked
 * before anything is stored: an http destination's templates render, its rules compile and its
 * URLs pass the SSRF guard; a crm destination's settings fit its plugin. Secrets are sealed apart
 * and never answered; an http destination's signing secret is answered once, at creation.
 */
@inject()
export default class DestinationService {
  constructor(
    protected accessLog: AccessLogService,
    protected plugins: PluginRegistry
  ) {}

  async buyerFor(principal: Principal, buyerId: string) {
    if (principal.kind === 'buyer' && principal.buyerId !== buyerId) {
      throw ApiProblem.notFound('buyer')
    }
    const buyer = await Buyer.find(buyerId)
    if (!buyer) throw ApiProblem.notFound('buyer')
    return buyer
  }

  async list(principal: Principal, buyerId: string, page: PageRequest) {
    const buyer = await this.buyerFor(principal, buyerId)
    return paginate(Destination.query().where('buyer_id', buyer.id), page)
  }

  async find(principal: Principal, buyerId: string, id: string) {
    const buyer = await this.buyerFor(principal, buyerId)
    const destination = await Destination.query()
      .where('buyer_id', buyer.id)
      .where('id', id)
      .first()
    if (!destination) throw ApiProblem.notFound('destination')
    return destination
  }

  async create(principal: Principal, buyerId: string, input: DestinationInput) {
    const buyer = await this.buyerFor(principal, buyerId)
    const settings = await this.settingsOf(input.kind, input, null)
    const signingSecret = input.kind === 'http' ? newSigningSecret() : null
    const destination = await transaction(async (trx) => {
      const created = await Destination.create(
        {
          buyerId: buyer.id,
          name: input.name,
          kind: input.kind,
          config: settings.config,
          secrets: settings.secrets ? sealDestinationSecrets(settings.secrets) : null,
          signingSecret: signingSecret ? sealSecret(signingSecret) : null,
          status: 'enabled',
        },
        { client: trx }
      )
      await this.log(principal, 'destination.created', created, trx, { kind: input.kind })
      return created
    })
    return { destination, signingSecret }
  }

  async update(principal: Principal, destination: Destination, patch: DestinationPatch) {
    const fields = Object.keys(patch) as (keyof DestinationPatch)[]
    if (fields.length === 0) return destination
    const foreign = fields.filter(
      (field) => field in KIND_FIELDS && field !== KIND_FIELDS[destination.kind as 'http']
    )
    if (foreign.length > 0) {
      throw ApiProblem.unprocessable(
        foreign.map((field) => ({
          field,
          code: 'kind',
          message: `This destination is of kind ${destination.kind}; it has no ${field} settings.`,
        }))
      )
    }
    const changesSettings = fields.some((field) => field in KIND_FIELDS)
    const settings = changesSettings
      ? await this.settingsOf(destination.kind, patch, destination)
      : null
    await transaction(async (trx) => {
      destination.useTransaction(trx)
      if (patch.name !== undefined) destination.name = patch.name
      if (settings) {
        destination.config = settings.config
        destination.secrets = settings.secrets ? sealDestinationSecrets(settings.secrets) : null
      }
      await destination.save()
      await this.log(principal, 'destination.updated', destination, trx, { fields })
    })
    forgetDestination(destination.id)
    return destination
  }

  async delete(principal: Principal, destination: Destination) {
    const used = await RoutingRule.query().where('destination_id', destination.id).first()
    if (used) {
      throw ApiProblem.conflict(
        'destination_in_use',
        'A routing rule sells to this destination; point the rule elsewhere first.'
      )
    }
    await transaction(async (trx) => {
      destination.useTransaction(trx)
      await destination.delete()
      await this.log(principal, 'destination.deleted', destination, trx)
    })
    forgetDestination(destination.id)
  }

  /**
   * The kind's settings as stored (`config`) and its secrets, checked. An update may leave an
   * http destination's secret out to keep the stored one, as long as its auth type stays.
   */
  private async settingsOf(
    kind: DestinationKind,
    input: DestinationPatch,
    stored: Destination | null
  ): Promise<{ config: Record<string, unknown>; secrets: Record<string, unknown> | null }> {
    const kept = stored ? openDestinationSecrets(stored.secrets) : {}
    if (kind === 'webhook') return { config: {}, secrets: null }
    if (kind === 'email') return { config: { email: input.email }, secrets: null }
    if (kind === 'crm') return this.crmSettings(input.crm!)
    const { http, secrets } = separateSecrets(input.http!)
    const errors: FieldError[] = await destinationProblems(http)
    const auth = http.auth
    const field = auth && auth.type !== 'none' ? SECRET_FIELD[auth.type] : null
    const sameAuth = stored?.config.http?.auth?.type === auth?.type
    const secret = field ? (secrets[field] ?? (sameAuth ? kept[field] : undefined)) : undefined
    if (field && secret === undefined) {
      errors.push({
        field: `http.auth.${field}`,
        code: 'required',
        message: `A ${auth!.type} auth needs its ${field}.`,
      })
    }
    if (errors.length > 0) throw ApiProblem.unprocessable(errors)
    return { config: { http }, secrets: field ? { [field]: secret } : null }
  }

  private async crmSettings(crm: NonNullable<DestinationInput['crm']>) {
    const plugin = this.plugins.get(crm.plugin)
    if (!plugin || plugin.manifest.kind !== 'crm') {
      throw ApiProblem.unprocessable([
        {
          field: 'crm.plugin',
          code: 'exists',
          message: `No CRM plugin is called "${crm.plugin}".`,
        },
      ])
    }
    const settings = await validateSettings(plugin.manifest, crm.settings, true).catch(
      (error: unknown) => {
        // The plugin names its fields from `settings`; in this body they sit under `crm`.
        if (error instanceof ApiProblem && Array.isArray(error.extensions.errors)) {
          throw ApiProblem.unprocessable(
            (error.extensions.errors as FieldError[]).map((problem) => ({
              ...problem,
              field: `crm.${problem.field}`,
            }))
          )
        }
        throw error
      }
    )
    const { plain, secrets } = splitSecrets(plugin.manifest, settings)
    return {
      config: { crm: { plugin: crm.plugin, settings: plain } },
      secrets: Object.keys(secrets).length > 0 ? secrets : null,
    }
  }

  private log(
    principal: Principal,
    action: string,
    destination: Destination,
    trx: TransactionClientContract,
    details: Record<string, unknown> = {}
  ) {
    return this.accessLog.record(
      principal.actor,
      action,
      { type: 'destination', id: destination.id, buyerId: destination.buyerId },
      { details, trx }
    )
  }
}
