import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import PayoutService from '#services/money/payout_service'
import SettlementService from '#services/money/settlement_service'
import StatementService from '#services/money/statement_service'
import { publisherSalesCsv, returnWindowOf } from '#services/money/portal_sales'
import PayoutTransformer from '#transformers/payout_transformer'
import ReturnWindowTransformer from '#transformers/return_window_transformer'
import SettlementTransformer from '#transformers/settlement_transformer'
import StatementTransformer from '#transformers/statement_transformer'
import { usableCursor } from '#controllers/portal/disputes_controller'
import { listPayoutsValidator, statementValidator } from '#validators/payout'

/** Lines of a statement the page lists; the CSV has them all. */
const STATEMENT_LINES_SHOWN = 100

/**
 * The money pages of the publisher's and the buyer's portals: a publisher's settlement (its own
 * figures, never a price or a margin), its payouts and its sales as CSV; a buyer's statement and
 * a lead's return window. The same services, policies and JSON as GET /v1/settlement,
 * /v1/payouts and /v1/buyers/{id}/statement, so each sees here what its API key would.
 */
@inject()
export default class MoneyController {
  constructor(
    protected settlements: SettlementService,
    protected payouts: PayoutService,
    protected statements: StatementService
  ) {}

  /** /publisher/settlement: pending, payable and paid, volume, the next payout and the payouts. */
  async settlement({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('view')
    await bouncer.with('PayoutPolicy').authorize('viewList')
    // A hand-edited address (a junk status or cursor) falls back to the first page of every payout.
    const [invalid, filters] = await listPayoutsValidator.tryValidate(request.qs())
    const publisher = await this.settlements.publisherFor(principal, undefined)
    const [figures, page] = await Promise.all([
      this.settlements.settlementOf(publisher),
      this.payouts.list(principal, {
        status: invalid ? undefined : filters.status,
        cursor: invalid ? undefined : usableCursor(filters.cursor),
      }),
    ])
    return inertia.render('money/settlement', {
      settlement: SettlementTransformer.transform(figures),
      payouts: PayoutTransformer.transform(page.data),
      next_cursor: page.nextCursor,
    })
  }

  /** /publisher/payouts/{id}: one payout and its lines; another publisher's answers 404. */
  async payout({ params, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('view')
    const { payout, lines } = await this.payouts.find(principal, params.id)
    return inertia.render('money/payout', { payout: PayoutTransformer.transform(payout, lines) })
  }

  /** /publisher/settlement/sales.csv: every sale of the publisher, streamed. */
  async salesCsv({ response, principal, bouncer }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('view')
    const publisher = await this.settlements.publisherFor(principal, undefined)
    const day = new Date().toISOString().slice(0, 10)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="sales-${day}.csv"`)
    response.header('Cache-Control', 'no-store')
    return response.stream(publisherSalesCsv(publisher.id))
  }

  /** /buyer/statement: accepted minus returned for a period (this month unless one is named). */
  async statement({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewStatement')
    const buyer = await this.buyerOf(principal)
    const [invalid, query] = await statementValidator.tryValidate(request.qs())
    let period: { from: Date; to: Date }
    let periodError: string | null = invalid ? 'Choose the period with the dates below.' : null
    try {
      period = this.statements.periodOf(invalid ? {} : query)
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error
      periodError = 'The period must start before it ends.'
      period = this.statements.periodOf({})
    }
    const statement = await this.statements.statement(buyer, period)
    const { lines } = statement
    return inertia.render('money/statement', {
      statement: StatementTransformer.transform(statement),
      lines: lines.slice(-STATEMENT_LINES_SHOWN).reverse(),
      line_count: lines.length,
      period_error: periodError,
    })
  }

  /** /buyer/statement/download: the same period as CSV, streamed as GET /v1/buyers/{id}/statement streams it. */
  async statementCsv({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewStatement')
    const buyer = await this.buyerOf(principal)
    const query = await statementValidator.validate(request.qs())
    const period = this.statements.periodOf(query)
    const day = (moment: Date) => moment.toISOString().slice(0, 10)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header(
      'Content-Disposition',
      `attachment; filename="statement-${day(period.from)}-${day(period.to)}.csv"`
    )
    response.header('Cache-Control', 'no-store')
    return response.stream(this.statements.csv(buyer, period))
  }

  /**
   * /buyer/leads/{id}/return-window (JSON, for the lead's page): whether the buyer may return
   * the lead now, until when, and its dispute once there is one.
   */
  async returnWindow({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('DisputePolicy').authorize('view')
    const current = await returnWindowOf(principal, params.id)
    const mayOpen = await bouncer.with('DisputePolicy').allows('open')
    return serialize(ReturnWindowTransformer.transform(current, mayOpen))
  }

  /** The buyer the user acts for; a buyer user linked to no buyer has no statement. */
  private buyerOf(principal: Principal) {
    if (!principal.buyerId) throw ApiProblem.notFound('buyer')
    return this.statements.buyerFor(principal, principal.buyerId)
  }
}
