import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SettlementService from '#services/money/settlement_service'
import { showSettlementValidator } from '#validators/settlement'
import SettlementTransformer from '#transformers/settlement_transformer'

@inject()
export default class SettlementController {
  constructor(protected settlement: SettlementService) {}

  async show({ request, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('view')
    const { publisher_id: publisherId } = await request.validateUsing(showSettlementValidator)
    const publisher = await this.settlement.publisherFor(principal, publisherId)
    // A sandbox key reads the sandbox's money; a live one never sees it.
    const settlement = await this.settlement.settlementOf(publisher, principal.environment)
    return serialize(SettlementTransformer.transform(settlement))
  }
}
