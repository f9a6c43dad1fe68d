import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import type { OwnerType } from '#models/mixins/with_owner_scope'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import webhooksConfig from '#config/webhooks'
import WebhookEndpoint from '#models/webhook_endpoint'
import { newSigningSecret } from '#services/webhooks/signing'
import { sealSecret } from '#services/webhooks/secrets'
import { subscribableBy } from '#services/webhooks/subscription'
import { AddressPolicy, urlProblem } from '#services/webhooks/ssrf_guard'
import { transaction } from '#services/sql/transaction'
import { disableEndpoint, enableEndpoint } from '#services/webhooks/endpoint_health'

export type EndpointInput = {
  url: string
  events: string[]
  description?: string | null
  publisher_id?: string
  buyer_id?: string
  fifo?: boolean
  rate_limit_per_second?: number | null
}

export type EndpointPatch = Partial<Omit<EndpointInput, 'publisher_id' | 'buyer_id'>> & {
  status?: 'enabled' | 'disabled'
}

const NOBODY = '00000000-0000-0000-0000-000000000000'

/**
 * Webhook endpoints: who owns them, what they may subscribe to, where they
 * may point, and their signing secret (returned once, stored encrypted).
 * An endpoint lives in the environment of the credential that created it.
 */
@inject()
export default class WebhookEndpointService {
  constructor(protected accessLog: AccessLogService) {}

  /** The operator sees every endpoint, a publisher or buyer its own; each only in its environment. */
  visibleTo(principal: Principal) {
    const query = WebhookEndpoint.query().where('environment', principal.environment)
    if (principal.isOperator) return query
    if (principal.kind === 'publisher')
      return query
        .where('owner_type', 'publisher')
        .where('publisher_id', principal.publisherId ?? NOBODY)
    if (principal.kind === 'buyer')
      return query.where('owner_type', 'buyer').where('buyer_id', principal.buyerId ?? NOBODY)
    return query.whereRaw('false')
  }

  async findVisible(principal: Principal, id: string) {
    const endpoint = await this.visibleTo(principal).where('id', id).first()
    if (!endpoint) throw ApiProblem.notFound('webhook endpoint')
    return endpoint
  }

  async create(principal: Principal, input: EndpointInput) {
    const owner = await this.ownerFor(principal, input)
    await this.check(owner.ownerType, input.url, input.events)
    const secret = newSigningSecret()
    const endpoint = await transaction(async (trx) => {
      const created = await WebhookEndpoint.create(
        {
          ...owner,
          environment: principal.environment,
          url: input.url,
          description: input.description ?? null,
          events: [...new Set(input.events)],
          status: 'enabled',
          fifo: input.fifo ?? false,
          rateLimitPerSecond: input.rate_limit_per_second ?? null,
          secret: sealSecret(secret),
          consecutiveFailures: 0,
          circuitTrips: 0,
          createdBy: principal.actor,
        },
        { client: trx }
      )
      await this.log(principal, 'webhook_endpoint.created', created, trx, {
        url: created.url,
        events: created.events,
      })
      return created
    })
    return { endpoint, secret }
  }

  async update(principal: Principal, endpoint: WebhookEndpoint, patch: EndpointPatch) {
    const fields = Object.keys(patch)
    if (fields.length === 0) return endpoint
    await this.check(endpoint.ownerType, patch.url, patch.events)
    const now = new Date()
    await transaction(async (trx) => {
      endpoint.useTransaction(trx)
      endpoint.merge({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.fifo !== undefined ? { fifo: patch.fifo } : {}),
        ...(patch.rate_limit_per_second !== undefined
          ? { rateLimitPerSecond: patch.rate_limit_per_second }
          : {}),
      })
      await endpoint.save()
      if (patch.status === 'disabled' && endpoint.status !== 'disabled')
        await disableEndpoint(trx, endpoint.id, 'manual', now)
      // Re-enabling resumes delivery from now on; the outage window is recovered separately.
      if (patch.status === 'enabled' && endpoint.status !== 'enabled')
        await enableEndpoint(trx, endpoint.id, now)
      await this.log(principal, 'webhook_endpoint.updated', endpoint, trx, { fields })
    })
    await endpoint.refresh()
    return endpoint
  }

  /** Deliveries and attempts go with the endpoint; the events stay in the outbox. */
  async delete(principal: Principal, endpoint: WebhookEndpoint) {
    await transaction(async (trx) => {
      endpoint.useTransaction(trx)
      await endpoint.delete()
      await this.log(principal, 'webhook_endpoint.deleted', endpoint, trx)
    })
  }

  /** The old secret keeps signing beside the new one for the overlap (24 h); a second rotation ends it early. */
  async rotateSecret(principal: Principal, endpoint: WebhookEndpoint) {
    const secret = newSigningSecret()
    const expiresAt = DateTime.utc().plus({ milliseconds: webhooksConfig.secretOverlapMs })
    await transaction(async (trx) => {
      endpoint.useTransaction(trx)
      endpoint.merge({
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: expiresAt,
        secret: sealSecret(secret),
      })
      await endpoint.save()
      await this.log(principal, 'webhook_endpoint.secret_rotated', endpoint, trx)
    })
    return { secret, previousSecretExpiresAt: expiresAt }
  }

  /** Checks the URL against the SSRF policy and the events against what the owner may see. */
  private async check(ownerType: OwnerType, url?: string, events?: string[]) {
    const errors: FieldError[] = []
    if (events) {
      const allowed = subscribableBy(ownerType)
      events.forEach((type, index) => {
        if (!allowed.includes(type)) {
          errors.push({
            field: `events.${index}`,
            code: 'event_not_allowed',
            message: `A ${ownerType} endpoint cannot subscribe to ${type}.`,
          })
        }
      })
    }
    if (url !== undefined) {
      const problem = await urlProblem(url, {
        policy: new AddressPolicy(webhooksConfig.ssrf.allow),
        requireHttps: webhooksConfig.ssrf.requireHttps,
        resolveTimeoutMs: webhooksConfig.ssrf.resolveTimeoutMs,
      })
      if (problem) errors.push(problem)
    }
    if (errors.length > 0) throw ApiProblem.unprocessable(errors)
  }

  /** The operator may create an endpoint for a publisher or a buyer; everyone else for itself. */
  private async ownerFor(principal: Principal, input: EndpointInput) {
    const unknown = (field: string, message: string) =>
      ApiProblem.unprocessable([{ field, code: 'exists', message }])
    if (input.publisher_id && input.buyer_id) {
      throw ApiProblem.unprocessable([
        {
          field: 'buyer_id',
          code: 'one_owner',
          message: 'Give publisher_id or buyer_id, not both.',
        },
      ])
    }
    if (principal.isOperator) {
      if (input.publisher_id) {
        if (!(await Publisher.find(input.publisher_id)))
          throw unknown('publisher_id', 'No publisher has this id.')
        return { ownerType: 'publisher' as const, publisherId: input.publisher_id, buyerId: null }
      }
      if (input.buyer_id) {
        if (!(await Buyer.find(input.buyer_id))) throw unknown('buyer_id', 'No buyer has this id.')
        return { ownerType: 'buyer' as const, publisherId: null, buyerId: input.buyer_id }
      }
      return { ownerType: 'operator' as const, publisherId: null, buyerId: null }
    }
    if (principal.kind === 'publisher') {
      if (input.buyer_id || (input.publisher_id && input.publisher_id !== principal.publisherId)) {
        throw unknown(
          input.buyer_id ? 'buyer_id' : 'publisher_id',
          'You can only create endpoints for your own publisher.'
        )
      }
      return { ownerType: 'publisher' as const, publisherId: principal.publisherId, buyerId: null }
    }
    if (input.publisher_id || (input.buyer_id && input.buyer_id !== principal.buyerId)) {
      throw unknown(
        input.publisher_id ? 'publisher_id' : 'buyer_id',
        'You can only create endpoints for your own buyer account.'
      )
    }
    return { ownerType: 'buyer' as const, publisherId: null, buyerId: principal.buyerId }
  }

  private async log(
    principal: Principal,
    action: string,
    endpoint: WebhookEndpoint,
    trx: TransactionClientContract,
    details: Record<string, unknown> = {}
  ) {
    await this.accessLog.record(
      principal.actor,
      action,
      {
        type: 'webhook_endpoint',
        id: endpoint.id,
        publisherId: endpoint.publisherId,
        buyerId: endpoint.buyerId,
      },
      { details: { environment: endpoint.environment, ...details }, trx }
    )
  }
}
