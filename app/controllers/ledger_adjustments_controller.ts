import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import AdjustmentService from '#services/money/adjustment_service'
import { adjustmentValidator } from '#validators/settlement'

@inject()
export default class LedgerAdjustmentsController {
  constructor(protected adjustments: AdjustmentService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('adjust')
    const input = await request.validateUsing(adjustmentValidator)
    return response.created(await this.adjustments.adjust(principal, input))
  }
}
