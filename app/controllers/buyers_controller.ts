import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import BuyerService from '#services/catalogue/buyer_service'
import { createBuyerValidator, listBuyersValidator, updateBuyerValidator } from '#validators/buyer'
import BuyerTransformer from '#transformers/buyer_transformer'

@inject()
export default class BuyersController {
  constructor(protected buyers: BuyerService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('create')
    const input = await request.validateUsing(createBuyerValidator)
    const buyer = await this.buyers.create(principal, input)
    return response.created(await serialize(BuyerTransformer.transform(buyer)))
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('viewList')
    const { limit, cursor } = await request.validateUsing(listBuyersValidator)
    const page = await this.buyers.list(principal, { limit, cursor })
    return serializePage(BuyerTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const buyer = await this.buyers.findVisible(principal, params.id)
    await bouncer.with('BuyerPolicy').authorize('view')
    return serialize(BuyerTransformer.transform(buyer))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const buyer = await this.buyers.findVisible(principal, params.id)
    await bouncer.with('BuyerPolicy').authorize('update')
    const input = await request.validateUsing(updateBuyerValidator)
    return serialize(BuyerTransformer.transform(await this.buyers.update(principal, buyer, input)))
  }
}
