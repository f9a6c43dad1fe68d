import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import IntakeService from '#services/intake/intake_service'
import PingService from '#services/selling/ping_service'
import { pingValidator, refuseContactInPing } from '#validators/ping'

/** POST /v1/pings: a publisher's partial lead, answered with an auction's offer. */
@inject()
export default class PingsController {
  constructor(
    protected intake: IntakeService,
    protected pings: PingService
  ) {}

  async store({ request, principal, bouncer, response }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('create')
    refuseContactInPing(request.body())
    const fields = await request.validateUsing(pingValidator)
    const publisher = await this.intake.publisherFor(principal, fields.publisher)
    response.header('Cache-Control', 'no-store')
    return this.pings.ping(publisher, principal.environment, fields)
  }
}
