import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate } from '#services/sql/cursor_pagination'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import WebhookEndpointTransformer from '#transformers/webhook_endpoint_transformer'
import {
  createWebhookEndpointValidator,
  updateWebhookEndpointValidator,
} from '#validators/webhook_endpoint'

@inject()
export default class WebhookEndpointsController {
  constructor(protected endpoints: WebhookEndpointService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('create')
    const input = await request.validateUsing(createWebhookEndpointValidator)
    const { endpoint, secret } = await this.endpoints.create(principal, input)
    const json = await serialize(WebhookEndpointTransformer.transform(endpoint))
    return response.created({ ...json, secret })
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('viewList')
    const page = await paginate(
      this.endpoints.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return serializePage(WebhookEndpointTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    return serialize(WebhookEndpointTransformer.transform(endpoint))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('update')
    const patch = await request.validateUsing(updateWebhookEndpointValidator)
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const updated = await this.endpoints.update(principal, endpoint, patch)
    return serialize(WebhookEndpointTransformer.transform(updated))
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('delete')
    await this.endpoints.delete(principal, await this.endpoints.findVisible(principal, params.id))
    return response.noContent()
  }

  async rotateSecret({ params, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('update')
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const { secret, previousSecretExpiresAt } = await this.endpoints.rotateSecret(
      principal,
      endpoint
    )
    return { secret, previous_secret_expires_at: previousSecretExpiresAt.toISO() }
  }
}
