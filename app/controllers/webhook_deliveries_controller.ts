import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import WebhookDeliveryService from '#services/webhooks/delivery_service'
import WebhookDeliveryTransformer from '#transformers/webhook_delivery_transformer'
import WebhookRecoveryTransformer from '#transformers/webhook_recovery_transformer'
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
  async forEndpoint({ params, request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    const filters = await endpointDeliveriesValidator.validate(request.qs())
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const page = await this.deliveries.list(principal, { ...filters, endpoint_id: endpoint.id })
    return serializePage(WebhookDeliveryTransformer.transform(page.data), page.nextCursor)
  }

  /** Deliveries across the caller's endpoints, e.g. every exhausted one. */
  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('viewList')
    const filters = await deliveriesValidator.validate(request.qs())
    const page = await this.deliveries.list(principal, filters)
    return serializePage(WebhookDeliveryTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    const delivery = await this.deliveries.findVisible(principal, params.id)
    return serialize(WebhookDeliveryTransformer.transform(delivery).useVariant('withAttempts'))
  }

  async retry({ params, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    const delivery = await this.deliveries.findVisible(principal, params.id)
    const retried = await this.deliveries.retry(delivery)
    return response.accepted(await serialize(WebhookDeliveryTransformer.transform(retried)))
  }

  async bulkRetry({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    const filter = await request.validateUsing(bulkRetryValidator)
    const task = await this.deliveries.bulkRetry(principal, filter)
    return response.accepted(await serialize(WebhookRecoveryTransformer.transform(task)))
  }
}
