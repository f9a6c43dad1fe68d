import { BaseTransformer } from '@adonisjs/core/transformers'
import type { PayoutLine } from '#services/money/payout_maker'
import type { PayoutRow } from '#services/money/payout_service'
import { isoTime } from '#services/sql/timestamps'

/**
 * A payout as its publisher and the operator read it: what it earns, never
 * what a buyer paid. Lines (one per sale, clawback or adjustment) come with
 * a single payout; the list leaves them out.
 */
export default class PayoutTransformer extends BaseTransformer<PayoutRow> {
  /** `publisherNames`: the operator's list names each payout's publisher (its owner directory). */
  constructor(
    payout: PayoutRow,
    protected lines?: PayoutLine[],
    protected publisherNames?: ReadonlyMap<string, string>
  ) {
    super(payout)
  }

  toObject() {
    const payout = this.resource
    return {
      id: payout.id,
      publisher_id: payout.publisher_id,
      period: { start: payout.period_start, end: payout.period_end },
      amount_cents: payout.amount_cents,
      currency: payout.currency,
      status: payout.status,
      reference: payout.reference,
      failure: payout.failure,
      lead_count: payout.lead_count,
      environment: payout.environment,
      ...(this.lines ? { lines: this.lines } : {}),
      created_at: isoTime(payout.created_at),
      paid_at: isoTime(payout.paid_at),
    }
  }

  /** The operator's list of payouts: each with its publisher's name. */
  withPublisherName() {
    return {
      ...this.toObject(),
      publisher_name: this.publisherNames?.get(this.resource.publisher_id) ?? null,
    }
  }
}
