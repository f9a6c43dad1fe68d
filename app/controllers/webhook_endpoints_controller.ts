import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate, pageToJson } from '#services/sql/cursor_pagination'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import { endpointToJson } from '#transformers/webhook_transformer'
import {
  createWebhookEndpointValidator,
  updateWebhookEndpointValidator,
} from '#validators/webhook_endpoint'

@inject()
export default class WebhookEndpointsController {
  constructor(protected endpoints: WebhookEndpointService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('create')
    const input = await request.validateUsing(createWebhookEndpointValidator)
    const { endpoint, secret } = await this.endpoints.create(principal, input)
    return response.created({ ...endpointToJson(endpoint), secret })
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('viewList')
    const page = await paginate(
      this.endpoints.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return pageToJson(page, endpointToJson)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('view')
    return endpointToJson(await this.endpoints.findVisible(principal, params.id))
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('update')
    const patch = await request.validateUsing(updateWebhookEndpointValidator)
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    return endpointToJson(await this.endpoints.update(principal, endpoint, patch))
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
