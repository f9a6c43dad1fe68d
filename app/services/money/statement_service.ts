import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Buyer from '#models/buyer'
import type { Environment } from '#auth/principal'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { accountsOf } from '#services/money/ledger'

export type StatementPeriod = { from?: Date; to?: Date }

/** One movement of the buyer's money: a sale (accepted) or a return credited. */
export type StatementLine = {
  lead_id: string
  kind: 'accepted' | 'returned'
  /** Signed: a sale adds the price, a return takes it off. */
  amount_cents: number
  currency: string
  booked_at: string
}

type Totals = {
  currency: string
  accepted: { count: number; amount_cents: number }
  returned: { count: number; amount_cents: number }
  net_cents: number
}

/** Rows read per query while streaming the CSV. */
const PAGE = 5000

/**
 * A buyer's statement for a period: the leads sold to it (accepted, at
 * their price) minus those it returned (credited), read from its side of
 * the ledger — exactly what its balance moved by. It names leads and
 * amounts, never a publisher or a payout.
 */
export default class StatementService {
  /** The buyer itself, or any buyer for the operator; another buyer's answers 404. */
  async buyerFor(principal: Principal, buyerId: string) {
    if (principal.kind === 'buyer' && principal.buyerId !== buyerId) {
      throw ApiProblem.notFound('buyer')
    }
    const buyer = await Buyer.find(buyerId)
    if (!buyer) throw ApiProblem.notFound('buyer')
    return buyer
  }

  /** `from` defaults to the first of this month, `to` (exclusive) to now; both UTC. */
  periodOf(period: StatementPeriod, now = new Date()) {
    const to = period.to ?? now
    const from =
      period.from ?? DateTime.fromJSDate(now, { zone: 'utc' }).startOf('month').toJSDate()
    if (from >= to) {
      throw ApiProblem.unprocessable([
        { field: 'from', code: 'period', message: '`from` must come before `to`.' },
      ])
    }
    return { from, to }
  }

  /** One environment's: a sandbox key reads its sandbox purchases, a live one never sees them. */
  async statement(
    buyer: Buyer,
    period: { from: Date; to: Date },
    environment: Environment = 'live'
  ) {
    const lines: StatementLine[] = []
    for await (const page of this.pages(buyer, period, environment)) lines.push(...page)
    const totals = new Map<string, Totals>()
    for (const line of lines) {
      const total = totals.get(line.currency) ?? {
        currency: line.currency,
        accepted: { count: 0, amount_cents: 0 },
        returned: { count: 0, amount_cents: 0 },
        net_cents: 0,
      }
      const side = total[line.kind]
      side.count += 1
      side.amount_cents += Math.abs(line.amount_cents)
      total.net_cents += line.amount_cents
      totals.set(line.currency, total)
    }
    const currencies = [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency))
    const main = currencies[0] ?? {
      currency: 'EUR',
      accepted: { count: 0, amount_cents: 0 },
      returned: { count: 0, amount_cents: 0 },
      net_cents: 0,
    }
    return {
      buyer_id: buyer.id,
      from: period.from.toISOString(),
      to: period.to.toISOString(),
      ...main,
      currencies,
      lines,
    }
  }

  /**
   * The lines as CSV, streamed a page at a time. Nothing in them is free
   * text, but a cell a spreadsheet would run as a formula is escaped all the
   * same (negative amounts stay numbers).
   */
  csv(buyer: Buyer, period: { from: Date; to: Date }, environment: Environment = 'live'): Readable {
    const pages = this.pages(buyer, period, environment)
    async function* records() {
      yield ['booked_at', 'lead_id', 'kind', 'amount_cents', 'currency']
      for await (const page of pages) {
        for (const line of page) {
          yield [line.booked_at, line.lead_id, line.kind, line.amount_cents, line.currency]
        }
      }
    }
    return Readable.from(records()).pipe(stringify({ escape_formulas: true }))
  }

  /** The buyer's sales and returns booked in the period, oldest first, by ledger id; one environment's accounts. */
  private async *pages(buyer: Buyer, period: { from: Date; to: Date }, environment: Environment) {
    const account = accountsOf(environment)
    const accounts = [account.buyerPending(buyer.id), account.buyerPayable(buyer.id)]
    let after = 0
    for (;;) {
      const rows = await db
        .from('ledger_entries')
        .whereIn('account', accounts)
        .whereIn('kind', ['sale', 'return', 'clawback'])
        .where('created_at', '>=', period.from)
        .where('created_at', '<', period.to)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .select('id', 'lead_id', 'kind', 'amount_cents', 'currency', 'created_at')
      yield rows.map((row): StatementLine => ({
        lead_id: row.lead_id,
        kind: row.kind === 'sale' ? 'accepted' : 'returned',
        amount_cents: Number(row.amount_cents),
        currency: String(row.currency).trim(),
        booked_at: new Date(row.created_at).toISOString(),
      }))
      if (rows.length < PAGE) return
      after = Number(rows[rows.length - 1].id)
    }
  }
}
