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
 * currency (from the ledger, exactly), accepted and returned sales, open
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
    const settlements = await this.settlementsOf([publisher], environment)
    return settlements.get(publisher.id)!
  }

  /**
   * Several publishers' settlements from one reading of each source, grouped by publisher (a
   * live dashboard's push reads a whole batch at once): each exactly what `settlementOf` gives.
   */
  async settlementsOf(publishers: Publisher[], environment: Environment = 'live') {
    const account = accountsOf(environment)
    const ids = publishers.map((publisher) => publisher.id)
    const labelIds = [...new Set(publishers.map((publisher) => publisher.labelId ?? null))]
    const [balances, paid, volumes, disputes, policies] = await Promise.all([
      balancesOf(
        db.connection(),
        ids.flatMap((id) => [account.publisherPending(id), account.publisherPayable(id)])
      ),
      db
        .from('payouts')
        .whereIn('publisher_id', ids)
        .where('environment', environment)
        .where('status', 'paid')
        .groupBy('publisher_id', 'currency')
        .select('publisher_id', 'currency', db.raw('sum(amount_cents)::bigint AS cents')),
      // Per sale: a shared lead sold twice is two sales, each kept or returned on its own.
      db
        .from('sales')
        .whereIn('publisher_id', ids)
        .where('environment', environment)
        .groupBy('publisher_id')
        .select(
          'publisher_id',
          db.raw(`count(*) FILTER (WHERE settlement <> 'returned')::int AS accepted`),
          db.raw(`count(*) FILTER (WHERE settlement = 'returned')::int AS returned`)
        ),
      db
        .from('disputes')
        .whereIn('publisher_id', ids)
        .where('environment', environment)
        .whereIn('status', ['open', 'responded'])
        .groupBy('publisher_id')
        .select('publisher_id', db.raw('count(*)::int AS open')),
      Promise.all(labelIds.map((labelId) => policyForLabel(labelId))),
    ])
    const policyOf = new Map(labelIds.map((labelId, index) => [labelId, policies[index]]))
    const settlements = new Map<string, ReturnType<typeof settlementFrom>>()
    for (const publisher of publishers) {
      const pending = balances.get(account.publisherPending(publisher.id))
      const payable = balances.get(account.publisherPayable(publisher.id))
      const volume = volumes.find((row) => row.publisher_id === publisher.id)
      settlements.set(
        publisher.id,
        settlementFrom(publisher.id, {
          pending,
          payable,
          paid: paid.filter((row) => row.publisher_id === publisher.id),
          accepted: volume?.accepted ?? 0,
          returned: volume?.returned ?? 0,
          open: Number(disputes.find((row) => row.publisher_id === publisher.id)?.open ?? 0),
          policy: policyOf.get(publisher.labelId ?? null)!,
        })
      )
    }
    return settlements
  }
}

/** One publisher's settlement from its rows of each source. */
function settlementFrom(
  publisherId: string,
  read: {
    pending: Map<string, number> | undefined
    payable: Map<string, number> | undefined
    paid: { currency: string; cents: string | number }[]
    accepted: number
    returned: number
    open: number
    policy: SettlementPolicy
  }
) {
  const currencies = new Set<string>([
    ...(read.pending?.keys() ?? []),
    ...(read.payable?.keys() ?? []),
    ...read.paid.map((row) => row.currency.trim()),
  ])
  const figures: CurrencyFigures[] = [...currencies].sort().map((currency) => ({
    currency,
    // The ledger counts what the platform owes as negative; a publisher reads it as earned.
    pending_cents: -(read.pending?.get(currency) ?? 0),
    payable_cents: -(read.payable?.get(currency) ?? 0),
    paid_cents: Number(read.paid.find((row) => row.currency.trim() === currency)?.cents ?? 0),
  }))
  const main = figures[0] ?? {
    currency: 'EUR',
    pending_cents: 0,
    payable_cents: 0,
    paid_cents: 0,
  }
  return {
    publisher_id: publisherId,
    ...main,
    currencies: figures,
    accepted_leads: read.accepted,
    returned_leads: read.returned,
    open_disputes: read.open,
    next_payout: {
      date: nextPayoutDate(read.policy),
      schedule: read.policy.payout_schedule,
      minimum_payout_cents: read.policy.minimum_payout_cents,
    },
  }
}
