import { BaseTransformer } from '@adonisjs/core/transformers'
import type StatementService from '#services/money/statement_service'

type Statement = Awaited<ReturnType<StatementService['statement']>>

/** A buyer's statement (GET /v1/buyers/{id}/statement): accepted minus returned over a period. */
export default class StatementTransformer extends BaseTransformer<Statement> {
  /** The totals, in the main currency and in each; the buyer's page lists the lines apart. */
  toObject() {
    return this.pick(this.resource, [
      'buyer_id',
      'from',
      'to',
      'currency',
      'accepted',
      'returned',
      'net_cents',
      'currencies',
    ])
  }

  /** The API's answer: the totals and every line, oldest first. */
  withLines() {
    return { ...this.toObject(), lines: this.resource.lines }
  }
}
