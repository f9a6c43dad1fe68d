import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { accountsOf, balancesOf } from '#services/money/ledger'
import { type SettlementPolicy, policyForLabel } from '#services/money/settlement_policy_service'

export type CurrencyFigures = {
  currency: string
  /** Earned on sales still inside their buyer's return window. */
  pending_cents: number
  /** Final and not yet paid out, net of clawbacks (negative: a clawback carried forward). */
  payable_cents: number
  paid_cents: number
}

/** When the next payout run of this schedule falls: next Monday, or the 1st of next month (UTC). */
export function nextPayoutDate(policy: SettlementPolicy, now = DateTime.utc()) {
  const today = now.startOf('day')
  const next =
    policy.payout_schedule === 'weekly'
      ? today.plus({ days: 8 - today.weekday })
      : today.startOf('month').plus({ months: 1 })
  return next.toISODate()!
}

/**
 * A publisher's money as it stands: pending, payable and paid amounts per
 * currency (from the ledger, exactly), accepted and returned volume, open
 * disputes and the next payout. What it earns, never what buyers pay. One
 * environment at a time: a sandbox sale never moves a live figure, and a
 * sandbox credential reads the sandbox's figures (docs/money.md, "Sandbox").
 */
@inject()
export default class SettlementService {
  async publisherFor(principal: Principal, publisherId: string | undefined) {
    if (principal.kind === 'publisher') {
      if (publisherId !== undefined && publisherId !== principal.publisherId) {
        throw ApiProblem.notFound('publisher')
      }
      return Publisher.findOrFail(principal.publisherId)
    }
    if (!publisherId) {
      throw ApiProblem.unprocessable([
        {
          field: 'publisher_id',
          code: 'required',
          message: 'Name the publisher (?publisher_id=).',
        },
      ])
    }
    const publisher = await Publisher.find(publisherId)
    if (!publisher) throw ApiProblem.notFound('publisher')
    return publisher
  }

  async settlementOf(publisher: Publisher, environment: Environment = 'live') {
    const account = accountsOf(environment)
    const pending = account.publisherPending(publisher.id)
    const payable = account.publisherPayable(publisher.id)
    const [balances, paid, volume, disputes, policy] = await Promise.all([
      balancesOf(db.connection(), [pending, payable]),
      db
        .from('payouts')
        .where('publisher_id', publisher.id)
        .where('environment', environment)
        .where('status', 'paid')
        .groupBy('currency')
        .select('currency', db.raw('sum(amount_cents)::bigint AS cents')),
      db
        .from('lead_facts')
        .where('publisher_id', publisher.id)
        .where('environment', environment)
        .whereNotNull('settlement')
        .select(
          db.raw(`count(*) FILTER (WHERE settlement <> 'returned')::int AS accepted`),
          db.raw(`count(*) FILTER (WHERE settlement = 'returned')::int AS returned`)
        )
        .first(),
      db
        .from('disputes')
        .where('publisher_id', publisher.id)
        .where('environment', environment)
        .whereIn('status', ['open', 'responded'])
        .count('* as open')
        .first(),
      policyForLabel(publisher.labelId),
    ])
    const currencies = new Set<string>([
      ...(balances.get(pending)?.keys() ?? []),
      ...(balances.get(payable)?.keys() ?? []),
      ...paid.map((row) => row.currency.trim()),
    ])
    const figures: CurrencyFigures[] = [...currencies].sort().map((currency) => ({
      currency,
      // The ledger counts what the platform owes as negative; a publisher reads it as earned.
      pending_cents: -(balances.get(pending)?.get(currency) ?? 0),
      payable_cents: -(balances.get(payable)?.get(currency) ?? 0),
      paid_cents: Number(paid.find((row) => row.currency.trim() === currency)?.cents ?? 0),
    }))
    const main = figures[0] ?? {
      currency: 'EUR',
      pending_cents: 0,
      payable_cents: 0,
      paid_cents: 0,
    }
    return {
      publisher_id: publisher.id,
      ...main,
      currencies: figures,
      accepted_leads: volume?.accepted ?? 0,
      returned_leads: volume?.returned ?? 0,
      open_disputes: Number(disputes?.open ?? 0),
      next_payout: {
        date: nextPayoutDate(policy),
        schedule: policy.payout_schedule,
        minimum_payout_cents: policy.minimum_payout_cents,
      },
    }
  }
}
