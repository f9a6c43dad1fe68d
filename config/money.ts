import env from '#start/env'

/** Money (docs/money.md). */
const moneyConfig = {
  /** How often the worker's settlement clock closes return windows, enforces dispute deadlines and folds the ledger. */
  tickSeconds: env.get('SETTLEMENT_TICK_SECONDS') ?? 5,
  /** Sales made final per transaction by the clock. */
  acceptanceBatch: 500,
  /** Defaults of a label without its own settlement policy. */
  defaultPolicy: {
    payout_schedule: 'monthly' as const,
    minimum_payout_cents: 0,
    response_hours: 72,
    decision_hours: 120,
    default_outcome: 'upheld' as const,
  },
}

export default moneyConfig
