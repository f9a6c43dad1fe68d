import { uuidv7 } from 'uuidv7'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import { accountsOf } from '#services/money/ledger'
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

/** A line as it is stored: an earning or a clawback names the sale it is about. */
type StoredLine = PayoutLine & { sale_id: string | null }

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
  /** Whose money: live sales from the live accounts, or the sandbox's from its own. */
  environment: Environment
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
  ['environment', 'text'],
]
const LINE_COLUMNS: Column[] = [
  ['payout_id', 'uuid'],
  ['lead_id', 'uuid'],
  ['sale_id', 'uuid'],
  ['kind', 'text'],
  ['amount_cents', 'bigint'],
]

/** Payouts whose money has not left yet: the payable account still holds their amounts. */
export const OPEN_PAYOUT_STATUSES = ['scheduled', 'processing'] as const

type Sums = { currency: string; cents: number }[]
type Clawed = {
  sale_id: string
  lead_id: string
  currency: string
  cents: number
  in_payout: boolean
}
type Netted = { sale_id: string; lead_id: string; currency: string; cents: number }

const sumOf = (rows: Sums, currency: string) =>
  Number(rows.find((row) => row.currency.trim() === currency)?.cents ?? 0)

/**
 * A sale is free to be paid when it is final (`payable`), was never paid (`payout_id`, set when
 * a payout is paid) and has no earning line on an open payout. A shared lead's sales are each
 * paid on their own. A payout takes a sale by listing it (`payout_lines`), not by writing it:
 * an insert at the end of a small table, where marking a million sales would rewrite every index
 * of `sales` (the payout run's benchmark). One environment's: a live payout never takes a
 * sandbox sale, nor a sandbox payout a live one.
 */
const FREE_SALES = `SELECT s.id, s.lead_id, s.currency, s.payout_cents, s.settles_at < ? AS due
   FROM public.sales s
  WHERE s.publisher_id = ? AND s.environment = ? AND s.settlement = 'payable' AND s.payout_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM public.payout_lines l JOIN public.payouts p ON p.id = l.payout_id
                     WHERE p.publisher_id = s.publisher_id AND p.status = ANY(?::text[])
                       AND l.kind = 'earning' AND l.sale_id = s.id)`

/**
 * Creates a publisher's payouts for one period, one per currency, in one
 * transaction, or none.
 *
 * The amount is what the ledger says the platform owes, not a sum the run
 * adds up on its own: minus the balance of the publisher's payable account,
 * less what open payouts already hold (their money leaves, and is booked,
 * when they are paid), less the free sales it does not take (those that
 * became final after the period). So clawbacks, adjustments and a negative
 * balance carried from earlier net out exactly, and a payout is made only
 * when that amount is positive and reaches the label's minimum; otherwise
 * everything waits for the next run.
 *
 * The lines say where the amount comes from: one `earning` per sale taken
 * (a shared lead has a line per sale), one `clawback` per returned sale
 * that a payout paid (or gives one back when that payout failed, so never
 * paid the sale), and an `adjustment` line for the rest — the operator's
 * manual adjustments.
 *
 * Everything the amount depends on is read in one statement, so in one
 * snapshot: a sale made final writes its state and ledger rows together, a
 * payout paid its status and ledger rows, a dispute upheld its sale and
 * clawback. Whatever commits between that read and the write is exact all
 * the same — a sale returned meanwhile was paid with this payout and its
 * clawback nets against the next one — so no sale needs locking.
 */
export async function makePayouts(target: PayoutTarget, now: Date): Promise<MadePayout[]> {
  return transaction(async (trx) => {
    // One maker per publisher at a time, whatever happens to the run lock.
    await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [
      `payout:${target.publisherId}`,
    ])
    const state = await readState(trx, target)
    const made: MadePayout[] = []
    for (const currency of state.currencies) {
      if (state.taken.has(currency)) continue
      const free = state.free.filter((sale) => sale.currency.trim() === currency)
      const taking = free.filter((sale) => sale.due)
      const sum = (sales: typeof free) =>
        sales.reduce((total, sale) => total + Number(sale.payout_cents), 0)
      const earned = sum(taking)
      const owed = -sumOf(state.balances, currency) - sumOf(state.open, currency)
      // Less the free sales this period does not take: final only after it ended.
      const amount = owed - (sum(free) - earned)
      if (amount <= 0 || amount < target.minimumCents) continue
      const lines = nettingLines(state.clawed, state.netted, currency)
      const itemised = earned + lines.reduce((total, line) => total + line.amount_cents, 0)
      if (amount !== itemised) {
        lines.push({
          lead_id: null,
          sale_id: null,
          kind: 'adjustment',
          amount_cents: amount - itemised,
        })
      }
      const payout = {
        id: uuidv7(),
        publisher_id: target.publisherId,
        label_id: target.labelId,
        currency,
        period_start: state.previousEnds.get(currency)
          ? dayAfter(state.previousEnds.get(currency)!)
          : null,
        period_end: target.periodEnd,
        amount_cents: amount,
        lead_count: leadCount(taking),
        status: 'scheduled',
        created_at: now,
        updated_at: now,
        environment: target.environment,
      }
      await insertTogether(trx, writes(payout, taking, lines))
      made.push({
        id: payout.id,
        publisher_id: target.publisherId,
        currency,
        amount_cents: amount,
        lead_count: leadCount(taking),
      })
    }
    return made
  })
}

type FreeSale = {
  id: string
  lead_id: string
  currency: string
  payout_cents: number
  due: boolean
}

/** The leads a payout pays: a shared lead's sales on it count once. */
const leadCount = (sales: FreeSale[]) => new Set(sales.map((sale) => sale.lead_id)).size

/** Everything the amount depends on, read in one statement (one snapshot). */
async function readState(trx: TransactionClientContract, target: PayoutTarget) {
  const payable = accountsOf(target.environment).publisherPayable(target.publisherId)
  const id = target.publisherId
  const environment = target.environment
  const open = [...OPEN_PAYOUT_STATUSES]
  const [balances, held, free, clawed, netted, previous, taken] = await selectTogether(trx, [
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
        WHERE publisher_id = ? AND environment = ? AND status = ANY(?::text[]) GROUP BY currency`,
      [id, environment, open]
    ),
    rawPart(`${FREE_SALES} ORDER BY s.lead_id, s.id`, [
      periodBoundary(target.periodEnd),
      id,
      environment,
      open,
    ]),
    // Sales returned after they were final: netted once a payout paid (or holds) their earning.
    // A sale's ledger rows carry its lead and its buyer, and a lead has one sale per buyer.
    rawPart(
      `SELECT s.id AS sale_id, e.lead_id, e.currency, sum(e.amount_cents)::bigint AS cents,
              bool_or(s.payout_id IS NOT NULL OR EXISTS (
                SELECT 1 FROM public.payout_lines l JOIN public.payouts p ON p.id = l.payout_id
                 WHERE p.publisher_id = e.publisher_id AND p.status = ANY(?::text[])
                   AND l.kind = 'earning' AND l.sale_id = s.id)) AS in_payout
         FROM public.ledger_entries e
         JOIN public.sales s ON s.lead_id = e.lead_id AND s.buyer_id = e.buyer_id
        WHERE e.kind = 'clawback' AND e.publisher_id = ? AND e.account = ?
        GROUP BY s.id, e.lead_id, e.currency`,
      [open, id, payable]
    ),
    rawPart(
      `SELECT l.sale_id, l.lead_id, p.currency, sum(l.amount_cents)::bigint AS cents
         FROM public.payouts p JOIN public.payout_lines l ON l.payout_id = p.id AND l.kind = 'clawback'
        WHERE p.publisher_id = ? AND p.environment = ? AND p.status <> 'failed'
        GROUP BY l.sale_id, l.lead_id, p.currency`,
      [id, environment]
    ),
    rawPart(
      `SELECT currency, max(period_end)::text AS period_end FROM public.payouts
        WHERE publisher_id = ? AND environment = ? AND status <> 'failed' AND period_end < ?::date
        GROUP BY currency`,
      [id, environment, target.periodEnd]
    ),
    rawPart(
      `SELECT currency FROM public.payouts
        WHERE publisher_id = ? AND environment = ? AND period_end = ?::date`,
      [id, environment, target.periodEnd]
    ),
  ])
  const currencies = new Set<string>(
    [...free, ...balances, ...held].map((row) => String(row.currency).trim())
  )
  return {
    currencies: [...currencies].sort(),
    balances: balances as Sums,
    open: held as Sums,
    free: free as FreeSale[],
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
function nettingLines(clawed: Clawed[], netted: Netted[], currency: string): StoredLine[] {
  const target = new Map<string, number>()
  const done = new Map<string, number>()
  const leadOf = new Map<string, string>()
  for (const row of clawed) {
    if (row.currency.trim() !== currency || !row.in_payout) continue
    target.set(row.sale_id, -row.cents)
    leadOf.set(row.sale_id, row.lead_id)
  }
  for (const row of netted) {
    if (row.currency.trim() !== currency) continue
    done.set(row.sale_id, Number(row.cents))
    leadOf.set(row.sale_id, row.lead_id)
  }
  const sales = [...new Set([...target.keys(), ...done.keys()])].sort()
  return sales
    .map((saleId) => ({
      lead_id: leadOf.get(saleId)!,
      sale_id: saleId,
      kind: 'clawback' as const,
      amount_cents: (target.get(saleId) ?? 0) - (done.get(saleId) ?? 0),
    }))
    .filter((line) => line.amount_cents !== 0)
}

/** The payout and its lines, as one statement; the earnings go in as three arrays, whatever their number. */
function writes(
  payout: { id: string } & Record<string, unknown>,
  taking: FreeSale[],
  lines: StoredLine[]
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
  if (taking.length > 0) {
    parts.push(
      rawPart(
        `INSERT INTO public.payout_lines (payout_id, lead_id, sale_id, kind, amount_cents)
         SELECT ?::uuid, s.lead_id, s.sale_id, 'earning', s.cents
           FROM unnest(?::uuid[], ?::uuid[], ?::bigint[]) AS s(lead_id, sale_id, cents)`,
        [
          payout.id,
          taking.map((sale) => sale.lead_id),
          taking.map((sale) => sale.id),
          taking.map((sale) => sale.payout_cents),
        ]
      )
    )
  }
  return parts
}
