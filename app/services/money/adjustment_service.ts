import { inject } from '@adonisjs/core'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { account, ledgerInsert, movement } from '#services/money/ledger'
import { insertTogether } from '#services/sql/insert_together'
import { transaction } from '#services/sql/transaction'

export type AdjustmentInput = {
  publisher_id: string
  amount_cents: number
  currency: string
  note: string
}

/**
 * A manual correction of what a publisher is owed: positive credits it,
 * negative takes back. It moves the publisher's payable balance against
 * the operator's adjustments account, so the books still sum to zero and
 * the next payout run pays (or nets) it. The note says why; it is the
 * operator's words about money, never about a consumer.
 */
@inject()
export default class AdjustmentService {
  constructor(protected accessLog: AccessLogService) {}

  async adjust(principal: Principal, input: AdjustmentInput) {
    if (input.amount_cents === 0) {
      throw ApiProblem.unprocessable([
        {
          field: 'amount_cents',
          code: 'not_zero',
          message: 'An adjustment of nothing adjusts nothing.',
        },
      ])
    }
    const publisher = await Publisher.find(input.publisher_id)
    if (!publisher) {
      throw ApiProblem.unprocessable([
        { field: 'publisher_id', code: 'exists', message: 'No publisher with this id.' },
      ])
    }
    const rows = movement(
      'adjustment',
      [
        [account.publisherPayable(publisher.id), -input.amount_cents],
        [account.adjustments, input.amount_cents],
      ],
      { currency: input.currency, publisherId: publisher.id, reference: input.note }
    )
    await transaction(async (trx) => {
      await insertTogether(trx, [ledgerInsert(rows)])
      await this.accessLog.record(
        principal.actor,
        'ledger.adjusted',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        { details: { amount_cents: input.amount_cents, currency: input.currency }, trx }
      )
    })
    return {
      movement_id: rows[0].movement_id,
      publisher_id: publisher.id,
      amount_cents: input.amount_cents,
      currency: input.currency,
      note: input.note,
    }
  }
}
