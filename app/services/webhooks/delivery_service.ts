import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import type WebhookEndpoint from '#models/webhook_endpoint'
import WebhookDelivery, { type DeliveryStatus } from '#models/webhook_delivery'
import WebhookRecovery, { type RecoveryFilter } from '#models/webhook_recovery'
import {
  type EventScope,
  mayReceive,
  receives,
  subscriberOf,
} from '#services/webhooks/subscription'
import { deliveryRow, wakeRelay, wakeTaskRunner } from '#services/webhooks/fan_out'
import { transaction } from '#services/sql/transaction'
import { rescheduleWhere } from '#services/webhooks/rescheduling'

export type DeliveryFilters = PageRequest & {
  status?: DeliveryStatus
  type?: string
  from?: Date
  to?: Date
  endpoint_id?: string
  /** The deliveries of the events about one lead. */
  lead_id?: string
}

export type BulkRetryFilter = {
  status?: 'failed' | 'exhausted'
  endpoint_id?: string
  type?: string
  from?: Date
  to?: Date
}

const NOBODY = '00000000-0000-0000-0000-000000000000'

/**
 * The delivery log and everything that sends again: retry one delivery,
 * replay one event, recover an endpoint's window, retry in bulk. Whoever
 * sees an endpoint sees its deliveries; nobody else learns they exist.
 */
@inject()
export default class WebhookDeliveryService {
  constructor(protected endpoints: WebhookEndpointService) {}

  visibleTo(principal: Principal) {
    return WebhookDelivery.query().whereIn(
      'endpoint_id',
      this.endpoints.visibleTo(principal).select('id')
    )
  }

  /** Newest first; `from`/`to` are on the event's time. */
  async list(principal: Principal, filters: DeliveryFilters) {
    const query = this.visibleTo(principal)
    if (filters.endpoint_id) query.where('endpoint_id', filters.endpoint_id)
    if (filters.status) query.where('status', filters.status)
    if (filters.type) query.where('event_type', filters.type)
    if (filters.from) query.where('event_created_at', '>=', filters.from)
    if (filters.to) query.where('event_created_at', '<', filters.to)
    if (filters.lead_id) {
      query.whereIn(
        'event_id',
        db.from('outbox_events').select('id').where('lead_id', filters.lead_id)
      )
    }
    return paginate(query, filters)
  }

  async findVisible(principal: Principal, id: string) {
    const delivery = await this.visibleTo(principal)
      .where('id', id)
      .preload('attempts', (attempts) => attempts.orderBy('attempt', 'asc'))
      .first()
    if (!delivery) throw ApiProblem.notFound('webhook delivery')
    return delivery
  }

  /** Resend now, whatever the delivery's state, as a fresh run of the retry schedule. */
  async retry(delivery: WebhookDelivery) {
    await this.assertDeliverable(delivery.endpointId)
    const scheduled = await transaction((trx) =>
      rescheduleWhere(
        trx,
        { sql: 'd.id = :id', bindings: { id: delivery.id } },
        'manual',
        new Date()
      )
    )
    if (scheduled === 0) {
      throw ApiProblem.conflict(
        'delivery_in_flight',
        'An attempt of this delivery is under way; retry once it is recorded.'
      )
    }
    await delivery.refresh()
    return delivery
  }

  /**
   * Sends the event again to every endpoint of the caller subscribed to it
   * now, with the same event_id. Endpoints that never had it get a delivery.
   */
  async replay(principal: Principal, eventId: string) {
    const subscriber = subscriberOf(principal)
    const event = await db.from('outbox_events').where('id', eventId).first()
    const scope: EventScope | null = event
      ? {
          type: event.type,
          publisherId: event.publisher_id,
          buyerId: event.buyer_id,
          environment: event.environment,
        }
      : null
    if (!subscriber || !scope || !mayReceive(subscriber, scope)) throw ApiProblem.notFound('event')

    const endpoints = await this.endpoints
      .visibleTo(principal)
      .whereIn('status', ['enabled', 'paused'])
    // A label's endpoint (a plugin installation) replays only its label's events.
    const publisher = event.publisher_id
      ? await db.from('publishers').where('id', event.publisher_id).select('label_id').first()
      : null
    const label = publisher?.label_id ?? null
    const targets = endpoints.filter(
      (endpoint) =>
        receives(endpoint, scope) && (endpoint.labelId === null || endpoint.labelId === label)
    )
    const now = new Date()
    const deliveries = await transaction(async (trx) => {
      let count = 0
      for (const endpoint of targets) {
        const row = {
          ...deliveryRow(
            { ...scope, id: event.id, leadId: event.lead_id, createdAt: event.created_at },
            endpoint.id,
            now
          ),
          next_trigger: 'manual',
        }
        const inserted = await trx
          .knexQuery()
          .table('webhook_deliveries')
          .insert(row)
          .onConflict(['event_id', 'endpoint_id'])
          .ignore()
          .returning('id')
        count += inserted.length
          ? 1
          : await rescheduleWhere(
              trx,
              {
                sql: 'd.event_id = :eventId AND d.endpoint_id = :endpointId',
                bindings: { eventId, endpointId: endpoint.id },
              },
              'manual',
              now
            )
      }
      if (count > 0) await wakeRelay(trx)
      return count
    })
    return { event_id: eventId, deliveries }
  }

  /** Queues the recovery of `[since, until)`: failed and exhausted deliveries, and events missed while disabled. */
  async recover(principal: Principal, endpoint: WebhookEndpoint, since: Date, until = new Date()) {
    if (until <= since) {
      throw ApiProblem.unprocessable([
        { field: 'until', code: 'after_since', message: '"until" must be later than "since".' },
      ])
    }
    await this.assertDeliverable(endpoint.id)
    return this.queueTask(principal, {
      kind: 'recover',
      endpointId: endpoint.id,
      ownerType: endpoint.ownerType,
      publisherId: endpoint.publisherId,
      buyerId: endpoint.buyerId,
      filter: { since: since.toISOString(), until: until.toISOString() },
    })
  }

  /** Queues a resend of every visible delivery the filter selects (exhausted by default). */
  async bulkRetry(principal: Principal, filter: BulkRetryFilter) {
    if (filter.endpoint_id) await this.endpoints.findVisible(principal, filter.endpoint_id)
    return this.queueTask(principal, {
      kind: 'retry',
      endpointId: filter.endpoint_id ?? null,
      ownerType: principal.isOperator
        ? 'operator'
        : principal.kind === 'buyer'
          ? 'buyer'
          : 'publisher',
      publisherId: principal.isOperator ? null : principal.publisherId,
      buyerId: principal.isOperator ? null : principal.buyerId,
      filter: {
        status: filter.status ?? 'exhausted',
        ...(filter.endpoint_id ? { endpoint_id: filter.endpoint_id } : {}),
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.from ? { from: filter.from.toISOString() } : {}),
        ...(filter.to ? { to: filter.to.toISOString() } : {}),
      },
    })
  }

  /** Tasks are visible to the operator and to the owner they concern. */
  async findTask(principal: Principal, id: string) {
    const query = WebhookRecovery.query()
      .where('id', id)
      .where('environment', principal.environment)
    if (principal.kind === 'publisher')
      query.where('owner_type', 'publisher').where('publisher_id', principal.publisherId ?? NOBODY)
    else if (principal.kind === 'buyer')
      query.where('owner_type', 'buyer').where('buyer_id', principal.buyerId ?? NOBODY)
    else if (!principal.isOperator) query.whereRaw('false')
    const task = await query.first()
    if (!task) throw ApiProblem.notFound('webhook recovery')
    return task
  }

  private async queueTask(
    principal: Principal,
    task: Pick<WebhookRecovery, 'kind' | 'endpointId' | 'ownerType' | 'publisherId' | 'buyerId'> & {
      filter: RecoveryFilter
    }
  ) {
    const created = await WebhookRecovery.create({
      ...task,
      environment: principal.environment,
      trigger: 'manual',
      status: 'queued',
      scheduled: 0,
      requestedBy: principal.actor,
    })
    await wakeTaskRunner(db.connection())
    return created
  }

  private async assertDeliverable(endpointId: string) {
    const endpoint = await db
      .from('webhook_endpoints')
      .where('id', endpointId)
      .select('status')
      .first()
    if (endpoint?.status === 'disabled') {
      throw ApiProblem.conflict(
        'endpoint_disabled',
        'The endpoint is disabled: enable it (PATCH status "enabled") first.'
      )
    }
  }
}
