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
  /** Disputes (docs/money.md, "Disputes"). */
  disputes: {
    /** Longest text a party writes: the buyer's details, the publisher's answer, the operator's note. */
    maxTextLength: 5000,
    /** Files a publisher attaches to one answer, and the size of each. */
    maxFiles: 5,
    maxFileBytes: 5 * 1024 * 1024,
    /** Disputes past a deadline decided per turn of the settlement clock, one transaction each. */
    deadlineBatch: 100,
    /** How far back a `duplicate` is confirmed when the publisher's duplicate rule names no window. */
    duplicateWindowDays: 30,
  },
}

export default moneyConfig
