import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import BuyerFundsService from '#services/money/buyer_funds_service'
import StatementService from '#services/money/statement_service'
import { fundsQueryValidator, topUpValidator } from '#validators/buyer'

/** A buyer's funds (docs/money.md, "Buyer funds"): read them, and record money paid in. */
@inject()
export default class BuyerFundsController {
  constructor(
    protected funds: BuyerFundsService,
    protected statements: StatementService
  ) {}

  async show({ params, request, principal, bouncer, response }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewFunds')
    const { currency } = await fundsQueryValidator.validate(request.qs())
    const buyer = await this.statements.buyerFor(principal, params.id)
    response.header('Cache-Control', 'no-store')
    return this.funds.read(buyer, currency)
  }

  async topUp({ params, request, principal, bouncer, response }: HttpContext) {
    // Another buyer's funds are not there (404) before they are not yours to top up (403).
    const buyer = await this.statements.buyerFor(principal, params.id)
    await bouncer.with('PayoutPolicy').authorize('topUp')
    const input = await request.validateUsing(topUpValidator)
    return response.created(await this.funds.topUp(principal, buyer, input))
  }
}
