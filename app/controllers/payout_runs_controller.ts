import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PayoutRunService from '#services/money/payout_run_service'
import { createPayoutRunValidator } from '#validators/payout'

/** POST /v1/payout-runs: the operator runs payouts now (the settlement clock runs them on schedule). */
@inject()
export default class PayoutRunsController {
  constructor(protected runs: PayoutRunService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('run')
    const input = await request.validateUsing(createPayoutRunValidator)
    return response.status(202).send(await this.runs.run(principal, input))
  }
}
