import { uuidv7 } from 'uuidv7'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { account } from '#services/money/ledger'
import { type IsoDate, dayAfter, periodBoundary } from '#services/money/payout_period'
import {
  type Column,
  type Part,
  insertRows,
  insertTogether,
  rawPart,
  selectTogether,
} from '#services/sql/insert_together'
import { transaction } from '#services/sql/transaction'

/** What a payout line is: a sale's earning, a clawback netted (or given back), or the rest. */
export type PayoutLineKind = 'earning' | 'clawback' | 'adjustment'

export type PayoutLine = { lead_id: string | null; kind: PayoutLineKind; amount_cents: number }

/** A payout one run created. */
export type MadePayout = {
  id: string
  publisher_id: string
  currency: string
  amount_cents: number
  lead_count: number
}

/** Whom to pay, for which period, under which rule. */
export type PayoutTarget = {
  publisherId: string
  labelId: string | null
  periodEnd: IsoDate
  minimumCents: number
}

const PAYOUT_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['label_id', 'uuid'],
  ['currency', 'text'],
  ['period_start', 'date'],
  ['period_end', 'date'],
  ['amount_cents', 'bigint'],
  ['lead_count', 'int'],
  ['status', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
]
const LINE_COLUMNS: Column[] = [
  ['payout_id', 'uuid'],
  ['lead_id', 'uuid'],
  ['kind', 'text'],
  ['amount_cents', 'bigint'],
]

/** Payouts whose money has not left yet: the payable account still holds their amounts. */
export const OPEN_PAYOUT_STATUSES = ['scheduled', 'processing'] as const

type Sums = { currency: string; cents: number }[]
type Clawed = { lead_id: string; currency: string; cents: number; in_payout: boolean }
type Netted = { lead_id: string; currency: string; cents: number }

const sumOf = (rows: Sums, currency: string) =>
  Number(rows.find((row) => row.currency.trim() === currency)?.cents ?? 0)

/**
 * Creates a publisher's payouts for one period, one per currency, in one
 * transaction, or none.
 *
 * The amount is what the ledger says the platform owes, not a sum the run
 * adds up on its own: minus the balance of the publisher's payable account,
 * less what open payouts already hold (their money leaves, and is booked,
 * when they are paid), less the final sales it does not take (those that
 * became final after the period). So clawbacks, adjustments and a negative
 * balance carried from earlier net out exactly, and a payout is made only
 * when that amount is positive and reaches the label's minimum; otherwise
 * everything waits for the next run.
 *
 * The lines say where the amount comes from: one `earning` per sale taken,
 * one `clawback` per returned sale that an earlier payout paid (or gives one
 * back when that payout failed and released the sale), and an `adjustment`
 * line for the rest — the operator's manual adjustments.
 */
export async function makePayouts(target: PayoutTarget, now: Date): Promise<MadePayout[]> {
  return transaction(async (trx) => {
    // One maker per publisher at a time, whatever happens to the run lock.
    await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [
      `payout:${target.publisherId}`,
    ])
    /*
     * The sales this period pays are claimed in one pass: the UPDATE locks them (a dispute
     * decided meanwhile waits for this commit) and marks them with an id of this transaction's,
     * which becomes the payout's. Marking them is the expensive write of a run (every index of
     * lead_facts), so it is done once; a currency left unpaid is simply unmarked again.
     */
    const claim = uuidv7()
    const claimed = await trx.rawQuery(
      `WITH claimed AS (
         UPDATE public.lead_facts SET payout_id = ?, updated_at = ?
          WHERE publisher_id = ? AND settlement = 'payable' AND payout_id IS NULL
            AND settles_at < ?
         RETURNING currency, payout_cents
       )
       SELECT currency, count(*)::int AS sales, sum(payout_cents)::bigint AS cents
         FROM claimed GROUP BY currency`,
      [claim, now, target.publisherId, periodBoundary(target.periodEnd)]
    )
    const sales = (claimed.rows as { currency: string; sales: number; cents: string }[]).map(
      (row) => ({ currency: row.currency.trim(), sales: row.sales, cents: Number(row.cents) })
    )
    const state = await readState(trx, target, sales)
    const made: MadePayout[] = []
    for (const currency of state.currencies) {
      const taken = sales.find((sale) => sale.currency === currency)
      const earned = taken?.cents ?? 0
      const owed = -sumOf(state.balances, currency) - sumOf(state.open, currency)
      // Less the final sales this period does not take: those still on no payout.
      const amount = owed - sumOf(state.unassigned, currency)
      if (state.taken.has(currency) || amount <= 0 || amount < target.minimumCents) {
        if (taken) await release(trx, claim, currency)
        continue
      }
      const lines = nettingLines(state.clawed, state.netted, currency)
      const itemised = earned + lines.reduce((sum, line) => sum + line.amount_cents, 0)
      if (amount !== itemised) {
        lines.push({ lead_id: null, kind: 'adjustment', amount_cents: amount - itemised })
      }
      // The claim becomes the first payout's id; another currency's sales move to an id of their own.
      const id = made.length === 0 ? claim : uuidv7()
      const payout = {
        id,
        publisher_id: target.publisherId,
        label_id: target.labelId,
        currency,
        period_start: state.previousEnds.get(currency)
          ? dayAfter(state.previousEnds.get(currency)!)
          : null,
        period_end: target.periodEnd,
        amount_cents: amount,
        lead_count: taken?.sales ?? 0,
        status: 'scheduled',
        created_at: now,
        updated_at: now,
      }
      if (taken && id !== claim) {
        await trx.rawQuery(
          `UPDATE public.lead_facts SET payout_id = ? WHERE payout_id = ? AND currency = ?`,
          [id, claim, currency]
        )
      }
      await insertTogether(trx, writes(payout, taken ? currency : null, lines))
      made.push({
        id,
        publisher_id: target.publisherId,
        currency,
        amount_cents: amount,
        lead_count: payout.lead_count,
      })
    }
    return made
  })
}

/** A currency not paid this time: its claimed sales go back to being on no payout. */
async function release(trx: TransactionClientContract, claim: string, currency: string) {
  await trx.rawQuery(
    `UPDATE public.lead_facts SET payout_id = NULL WHERE payout_id = ? AND currency = ?`,
    [claim, currency]
  )
}

/**
 * Everything the amount depends on, read in one statement (one snapshot):
 * the ledger balance, the open payouts and the final sales not taken are
 * then consistent with each other whatever commits meanwhile — a sale made
 * final writes its fact and its ledger rows together.
 */
async function readState(
  trx: TransactionClientContract,
  target: PayoutTarget,
  sales: { currency: string }[]
) {
  const payable = account.publisherPayable(target.publisherId)
  const id = target.publisherId
  const [balances, open, unassigned, clawed, netted, previous, taken] = await selectTogether(trx, [
    rawPart(
      `SELECT currency, sum(cents)::bigint AS cents FROM (
         SELECT currency, balance_cents AS cents FROM public.ledger_balances WHERE account = ?
         UNION ALL
         SELECT e.currency, e.amount_cents FROM public.ledger_entries e
          WHERE e.account = ? AND e.xid >= (SELECT folded_below FROM public.ledger_folds)
       ) t GROUP BY currency`,
      [payable, payable]
    ),
    rawPart(
      `SELECT currency, sum(amount_cents)::bigint AS cents FROM public.payouts
        WHERE publisher_id = ? AND status = ANY(?::text[]) GROUP BY currency`,
      [id, [...OPEN_PAYOUT_STATUSES]]
    ),
    // Final sales on no payout: the claimed ones are not among them (this transaction marked them).
    rawPart(
      `SELECT currency, sum(payout_cents)::bigint AS cents FROM public.lead_facts
        WHERE publisher_id = ? AND settlement = 'payable' AND payout_id IS NULL
        GROUP BY currency`,
      [id]
    ),
    // Returned after they were final: netted once their earning is on a payout still standing.
    rawPart(
      `SELECT e.lead_id, e.currency, sum(e.amount_cents)::bigint AS cents,
              bool_or(f.payout_id IS NOT NULL) AS in_payout
         FROM public.ledger_entries e JOIN public.lead_facts f ON f.lead_id = e.lead_id
        WHERE e.kind = 'clawback' AND e.publisher_id = ? AND e.account = ?
        GROUP BY e.lead_id, e.currency`,
      [id, payable]
    ),
    rawPart(
      `SELECT l.lead_id, p.currency, sum(l.amount_cents)::bigint AS cents
         FROM public.payouts p JOIN public.payout_lines l ON l.payout_id = p.id AND l.kind = 'clawback'
        WHERE p.publisher_id = ? AND p.status <> 'failed'
        GROUP BY l.lead_id, p.currency`,
      [id]
    ),
    rawPart(
      `SELECT currency, max(period_end)::text AS period_end FROM public.payouts
        WHERE publisher_id = ? AND status <> 'failed' AND period_end < ?::date GROUP BY currency`,
      [id, target.periodEnd]
    ),
    rawPart(`SELECT currency FROM public.payouts WHERE publisher_id = ? AND period_end = ?::date`, [
      id,
      target.periodEnd,
    ]),
  ])
  const currencies = new Set<string>(
    [...sales, ...balances, ...open].map((row) => String(row.currency).trim())
  )
  return {
    currencies: [...currencies].sort(),
    balances: balances as Sums,
    open: open as Sums,
    unassigned: unassigned as Sums,
    clawed: clawed as Clawed[],
    netted: netted as Netted[],
    previousEnds: new Map(previous.map((row) => [String(row.currency).trim(), row.period_end])),
    // The period is the idempotency key: a currency paid (or failed) for it is not paid again.
    taken: new Set(taken.map((row) => String(row.currency).trim())),
  }
}

/**
 * Clawback lines: a returned sale whose earning stands on a payout is netted
 * once (its clawback entry, as a negative line); if that payout failed and
 * released the sale, a clawback netted earlier is given back.
 */
function nettingLines(clawed: Clawed[], netted: Netted[], currency: string): PayoutLine[] {
  const target = new Map<string, number>()
  const done = new Map<string, number>()
  for (const row of clawed) {
    if (row.currency.trim() === currency && row.in_payout) target.set(row.lead_id, -row.cents)
  }
  for (const row of netted) {
    if (row.currency.trim() === currency) done.set(row.lead_id, Number(row.cents))
  }
  const leads = [...new Set([...target.keys(), ...done.keys()])].sort()
  return leads
    .map((leadId) => ({
      lead_id: leadId,
      kind: 'clawback' as const,
      amount_cents: (target.get(leadId) ?? 0) - (done.get(leadId) ?? 0),
    }))
    .filter((line) => line.amount_cents !== 0)
}

/** The payout and its lines, as one statement: its earnings are the sales marked with its id. */
function writes(
  payout: { id: string } & Record<string, unknown>,
  currency: string | null,
  lines: PayoutLine[]
): Part[] {
  const parts: Part[] = [insertRows('public.payouts', PAYOUT_COLUMNS, [payout])]
  if (lines.length > 0) {
    parts.push(
      insertRows(
        'public.payout_lines',
        LINE_COLUMNS,
        lines.map((line) => ({ ...line, payout_id: payout.id }))
      )
    )
  }
  if (currency === null) return parts
  parts.push(
    rawPart(
      `INSERT INTO public.payout_lines (payout_id, lead_id, kind, amount_cents)
       SELECT payout_id, lead_id, 'earning', payout_cents FROM public.lead_facts
        WHERE payout_id = ? AND currency = ? ORDER BY lead_id`,
      [payout.id, currency]
    )
  )
  return parts
}
