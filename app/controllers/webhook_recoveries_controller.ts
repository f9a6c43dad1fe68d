import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import WebhookDeliveryService from '#services/webhooks/delivery_service'
import WebhookRecoveryTransformer from '#transformers/webhook_recovery_transformer'
import { recoverValidator } from '#validators/webhook_endpoint'

@inject()
export default class WebhookRecoveriesController {
  constructor(
    protected deliveries: WebhookDeliveryService,
    protected endpoints: WebhookEndpointService
  ) {}

  /** Recovers an endpoint's failed deliveries over `[since, until)` as a tracked task. */
  async store({ params, request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    const { since, until } = await request.validateUsing(recoverValidator)
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const task = await this.deliveries.recover(principal, endpoint, since, until)
    return response.accepted(await serialize(WebhookRecoveryTransformer.transform(task)))
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    const task = await this.deliveries.findTask(principal, params.id)
    return serialize(WebhookRecoveryTransformer.transform(task))
  }
}
