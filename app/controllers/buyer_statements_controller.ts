import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import StatementService from '#services/money/statement_service'
import { statementValidator } from '#validators/payout'
import StatementTransformer from '#transformers/statement_transformer'

/** GET /v1/buyers/{id}/statement: accepted minus returned for a period, as JSON or a CSV download. */
@inject()
export default class BuyerStatementsController {
  constructor(protected statements: StatementService) {}

  async show({ params, request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewStatement')
    const query = await statementValidator.validate(request.qs())
    const buyer = await this.statements.buyerFor(principal, params.id)
    const period = this.statements.periodOf(query)
    const csv =
      query.format === 'csv' ||
      (query.format === undefined &&
        request.accepts(['application/json', 'text/csv']) === 'text/csv')
    if (!csv) {
      const statement = await this.statements.statement(buyer, period, principal.environment)
      return serialize(StatementTransformer.transform(statement).useVariant('withLines'))
    }
    const day = (moment: Date) => moment.toISOString().slice(0, 10)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header(
      'Content-Disposition',
      `attachment; filename="statement-${buyer.id}-${day(period.from)}-${day(period.to)}.csv"`
    )
    response.header('Cache-Control', 'no-store')
    return response.stream(this.statements.csv(buyer, period, principal.environment))
  }
}
