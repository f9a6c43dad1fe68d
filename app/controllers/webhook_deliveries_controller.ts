import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageToJson } from '#services/sql/cursor_pagination'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import WebhookDeliveryService from '#services/webhooks/delivery_service'
import {
  deliveryToJson,
  deliveryWithAttemptsToJson,
  recoveryToJson,
} from '#transformers/webhook_transformer'
import {
  bulkRetryValidator,
  deliveriesValidator,
  endpointDeliveriesValidator,
} from '#validators/webhook_endpoint'

@inject()
export default class WebhookDeliveriesController {
  constructor(
    protected deliveries: WebhookDeliveryService,
    protected endpoints: WebhookEndpointService
  ) {}

  /** The delivery log of one endpoint. */
  async forEndpoint({ params, request, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    const filters = await endpointDeliveriesValidator.validate(request.qs())
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    return pageToJson(
      await this.deliveries.list(principal, { ...filters, endpoint_id: endpoint.id }),
      deliveryToJson
    )
  }

  /** Deliveries across the caller's endpoints, e.g. every exhausted one. */
  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('viewList')
    const filters = await deliveriesValidator.validate(request.qs())
    return pageToJson(await this.deliveries.list(principal, filters), deliveryToJson)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    return deliveryWithAttemptsToJson(await this.deliveries.findVisible(principal, params.id))
  }

  async retry({ params, response, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    const delivery = await this.deliveries.findVisible(principal, params.id)
    return response.accepted(deliveryToJson(await this.deliveries.retry(delivery)))
  }

  async bulkRetry({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    const filter = await request.validateUsing(bulkRetryValidator)
    return response.accepted(recoveryToJson(await this.deliveries.bulkRetry(principal, filter)))
  }
}
