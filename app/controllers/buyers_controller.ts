import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import BuyerService from '#services/catalogue/buyer_service'
import { pageToJson } from '#services/sql/cursor_pagination'
import { createBuyerValidator, listBuyersValidator, updateBuyerValidator } from '#validators/buyer'
import { buyerToJson } from '#transformers/buyer_transformer'

@inject()
export default class BuyersController {
  constructor(protected buyers: BuyerService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('create')
    const input = await request.validateUsing(createBuyerValidator)
    return response.created(buyerToJson(await this.buyers.create(principal, input)))
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('viewList')
    const { limit, cursor } = await request.validateUsing(listBuyersValidator)
    return pageToJson(await this.buyers.list(principal, { limit, cursor }), buyerToJson)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    const buyer = await this.buyers.findVisible(principal, params.id)
    await bouncer.with('BuyerPolicy').authorize('view')
    return buyerToJson(buyer)
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const buyer = await this.buyers.findVisible(principal, params.id)
    await bouncer.with('BuyerPolicy').authorize('update')
    const input = await request.validateUsing(updateBuyerValidator)
    return buyerToJson(await this.buyers.update(principal, buyer, input))
  }
}
