import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PrivacyRequestService from '#services/privacy/privacy_request_service'
import { privacyRequestValidator } from '#validators/privacy'

@inject()
export default class PrivacyRequestsController {
  constructor(protected requests: PrivacyRequestService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('PrivacyPolicy').authorize('fileRequest')
    const input = await request.validateUsing(privacyRequestValidator)
    return response.accepted(await this.requests.create(principal, input))
  }

  async show({ params, principal, bouncer }: HttpContext) {
    const request = await this.requests.findVisible(principal, params.id)
    await bouncer.with('PrivacyPolicy').authorize('viewRequest')
    return request
  }
}
