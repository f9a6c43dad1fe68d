import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SaleViewService from '#services/selling/sale_view_service'

/** GET /v1/leads/{id}/sale: the lead's sale, each party its own part of it. */
@inject()
export default class SalesController {
  constructor(protected sales: SaleViewService) {}

  async show({ params, principal, bouncer }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('view')
    return this.sales.forLead(principal, params.id)
  }
}
