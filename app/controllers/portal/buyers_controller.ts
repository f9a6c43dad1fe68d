import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import BuyerService from '#services/catalogue/buyer_service'
import BuyerFundsService from '#services/money/buyer_funds_service'
import RoutingRuleService from '#services/routing/routing_rule_service'
import { buyerFigures } from '#services/catalogue/buyer_figures'
import { createBuyerValidator, listBuyersValidator, updateBuyerValidator } from '#validators/buyer'
import BuyerTransformer from '#transformers/buyer_transformer'
import { routingRuleRows } from '#controllers/concerns/routing_rule_rows'
import { fundsOf } from '#controllers/concerns/buyer_funds_view'

/** The operator's buyers: the same validators, service and JSON as /v1/buyers. */
@inject()
export default class BuyersController {
  constructor(
    protected buyers: BuyerService,
    protected rules: RoutingRuleService,
    protected funds: BuyerFundsService
  ) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('viewList')
    const { limit, cursor } = await request.validateUsing(listBuyersValidator)
    const page = await this.buyers.list(principal, { limit, cursor })
    const figures = await buyerFigures(page.data.map((buyer) => buyer.id))
    return inertia.render('operator/buyers/index', {
      buyers: BuyerTransformer.transform(page.data, figures).useVariant('withFigures'),
      next_cursor: page.nextCursor,
    })
  }

  async create({ inertia, bouncer }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('create')
    return inertia.render('operator/buyers/create', {})
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('BuyerPolicy').authorize('create')
    const input = await request.validateUsing(createBuyerValidator)
    const buyer = await this.buyers.create(principal, input)
    session.flash('notice', { severity: 'success', summary: `Buyer ${buyer.name} added` })
    return response.redirect().toRoute('operator.catalogue.buyers.show', { id: buyer.id })
  }

  /** A buyer's details, its figures, its funds and its routing rules (the first page of them). */
  async show({ params, inertia, principal, bouncer }: HttpContext) {
    const buyer = await this.buyers.findVisible(principal, params.id)
    await bouncer.with('BuyerPolicy').authorize('view')
    const [figures, page, funds] = await Promise.all([
      buyerFigures([buyer.id]),
      this.rules.list(principal, { buyer_id: buyer.id }),
      fundsOf(this.funds, buyer),
    ])
    return inertia.render('operator/buyers/show', {
      buyer: BuyerTransformer.transform(buyer, figures).useVariant('withFigures'),
      funds,
      ...(await routingRuleRows(this.rules, page)),
    })
  }

  /** Edits and pause/resume alike: PATCH /v1/buyers/{id}'s validator and service method. */
  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const buyer = await this.buyers.findVisible(principal, params.id)
    await bouncer.with('BuyerPolicy').authorize('update')
    const input = await request.validateUsing(updateBuyerValidator)
    const before = buyer.status
    await this.buyers.update(principal, buyer, input)
    const summary =
      buyer.status !== before
        ? `${buyer.name} ${buyer.status === 'paused' ? 'paused: it gets no new leads' : 'resumed'}`
        : input.billing
          ? `${buyer.name} is billed ${input.billing.mode} in ${input.billing.currency}`
          : `${buyer.name} saved`
    session.flash('notice', { severity: 'success', summary })
    return response.redirect().toRoute('operator.catalogue.buyers.show', { id: buyer.id })
  }
}
