import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import BuyerFundsService from '#services/money/buyer_funds_service'
import StatementService from '#services/money/statement_service'
import { fundsOf } from '#controllers/concerns/buyer_funds_view'
import { topUpValidator } from '#validators/buyer'

/**
 * A buyer's funds in the portals (docs/money.md, "Buyer funds"): the buyer's own page, and the
 * operator's top-up from the buyer's page. The same policy, validator and service as
 * GET /v1/buyers/{id}/funds and POST /v1/buyers/{id}/funds/top-ups; the billing mode is set
 * through the buyer's edit (PATCH /operator/buyers/{id} with `billing`, as the API does).
 */
@inject()
export default class BuyerFundsController {
  constructor(
    protected funds: BuyerFundsService,
    protected statements: StatementService
  ) {}

  /** /buyer/funds: the buyer's mode, balance, what it may still spend, and its top-ups. */
  async show({ inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewFunds')
    if (!principal.buyerId) throw ApiProblem.notFound('buyer')
    const buyer = await this.statements.buyerFor(principal, principal.buyerId)
    return inertia.render('buyer/funds', { funds: await fundsOf(this.funds, buyer) })
  }

  /** POST /operator/buyers/{id}/top-ups: money the buyer paid in; a repeated reference is refused. */
  async topUp({ params, request, response, session, principal, bouncer }: HttpContext) {
    const buyer = await this.statements.buyerFor(principal, params.id)
    await bouncer.with('PayoutPolicy').authorize('topUp')
    const input = await request.validateUsing(topUpValidator)
    const booked = await this.funds.topUp(principal, buyer, input)
    session.flash('notice', {
      severity: 'success',
      summary: `Top-up ${booked.reference} recorded`,
    })
    return response.redirect().toRoute('operator.catalogue.buyers.show', { id: buyer.id })
  }
}
