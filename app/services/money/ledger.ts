import { uuidv7 } from 'uuidv7'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import { type Column, type Part, insertRows } from '#services/sql/insert_together'

/**
 * The ledger's accounts. Positive balances are owed to the platform (a
 * buyer's price), negative ones owed by it (a publisher's earnings, the
 * operator's margin); every movement sums to zero. Sandbox money books to
 * the same accounts under a `sandbox:` prefix, so no live balance, payout
 * or statement ever reads it (docs/sandbox.md).
 */
export function accountsOf(environment: Environment) {
  const prefix = accountPrefix(environment)
  return {
    publisherPending: (publisherId: string) => `${prefix}publisher:${publisherId}:pending`,
    publisherPayable: (publisherId: string) => `${prefix}publisher:${publisherId}:payable`,
    buyerPending: (buyerId: string) => `${prefix}buyer:${buyerId}:pending`,
    buyerPayable: (buyerId: string) => `${prefix}buyer:${buyerId}:payable`,
    marginPending: `${prefix}operator:margin:pending`,
    marginEarned: `${prefix}operator:margin:earned`,
    /** What left the platform's bank to pay publishers. */
    cash: `${prefix}operator:cash`,
    /** The other side of a manual adjustment. */
    adjustments: `${prefix}operator:adjustments`,
  } as const
}

/** What an environment's account names begin with, for SQL that builds them per row. */
export function accountPrefix(environment: Environment) {
  return environment === 'sandbox' ? 'sandbox:' : ''
}

/** The live accounts: every balance a report, payout or statement reads unless it says sandbox. */
export const account = accountsOf('live')

export type MovementKind = 'sale' | 'acceptance' | 'return' | 'clawback' | 'payout' | 'adjustment'

export type LedgerRow = {
  movement_id: string
  kind: MovementKind
  account: string
  publisher_id: string | null
  buyer_id: string | null
  lead_id: string | null
  amount_cents: number
  currency: string
  reference: string | null
}

/** A sold lead's money: what the buyer pays, what the publisher earns. */
export type Sale = {
  leadId: string
  publisherId: string
  buyerId: string
  priceCents: number
  payoutCents: number
  currency: string
  environment: Environment
}

const COLUMNS: Column[] = [
  ['movement_id', 'uuid'],
  ['kind', 'text'],
  ['account', 'text'],
  ['publisher_id', 'uuid'],
  ['buyer_id', 'uuid'],
  ['lead_id', 'uuid'],
  ['amount_cents', 'bigint'],
  ['currency', 'text'],
  ['reference', 'text'],
]

/** One movement: its rows, each `[account, amount]`, under one id; zero amounts are left out. */
export function movement(
  kind: MovementKind,
  legs: [account: string, cents: number][],
  context: {
    currency: string
    publisherId?: string | null
    buyerId?: string | null
    leadId?: string | null
    reference?: string | null
  }
): LedgerRow[] {
  const movementId = uuidv7()
  return legs
    .filter(([, cents]) => cents !== 0)
    .map(([name, cents]) => ({
      movement_id: movementId,
      kind,
      account: name,
      publisher_id: context.publisherId ?? null,
      buyer_id: context.buyerId ?? null,
      lead_id: context.leadId ?? null,
      amount_cents: cents,
      currency: context.currency,
      reference: context.reference ?? null,
    }))
}

const saleContext = (sale: Sale) => ({
  currency: sale.currency,
  publisherId: sale.publisherId,
  buyerId: sale.buyerId,
  leadId: sale.leadId,
})

/** A match: the buyer owes the price, the platform owes the publisher its payout and keeps the rest; all pending. */
export function saleMovement(sale: Sale) {
  const accounts = accountsOf(sale.environment)
  return movement(
    'sale',
    [
      [accounts.buyerPending(sale.buyerId), sale.priceCents],
      [accounts.publisherPending(sale.publisherId), -sale.payoutCents],
      [accounts.marginPending, sale.payoutCents - sale.priceCents],
    ],
    saleContext(sale)
  )
}

/** The return window closed without a dispute: the sale is final, its amounts payable. */
export function acceptanceMovement(sale: Sale) {
  const accounts = accountsOf(sale.environment)
  return movement(
    'acceptance',
    [
      [accounts.buyerPending(sale.buyerId), -sale.priceCents],
      [accounts.buyerPayable(sale.buyerId), sale.priceCents],
      [accounts.publisherPending(sale.publisherId), sale.payoutCents],
      [accounts.publisherPayable(sale.publisherId), -sale.payoutCents],
      [accounts.marginPending, sale.priceCents - sale.payoutCents],
      [accounts.marginEarned, sale.payoutCents - sale.priceCents],
    ],
    saleContext(sale)
  )
}

/**
 * An upheld dispute: the buyer is credited the price and the publisher loses the payout, out of
 * what is still pending or, once payable or paid, as a clawback against its next payout.
 */
export function returnMovement(sale: Sale, from: 'pending' | 'payable') {
  const pending = from === 'pending'
  const accounts = accountsOf(sale.environment)
  return movement(
    pending ? 'return' : 'clawback',
    [
      [
        pending ? accounts.buyerPending(sale.buyerId) : accounts.buyerPayable(sale.buyerId),
        -sale.priceCents,
      ],
      [
        pending
          ? accounts.publisherPending(sale.publisherId)
          : accounts.publisherPayable(sale.publisherId),
        sale.payoutCents,
      ],
      [
        pending ? accounts.marginPending : accounts.marginEarned,
        sale.priceCents - sale.payoutCents,
      ],
    ],
    saleContext(sale)
  )
}

/** The INSERT of some movements' rows, as one statement (the balance trigger checks each movement). */
export function ledgerInsert(rows: LedgerRow[]): Part {
  return insertRows('public.ledger_entries', COLUMNS, rows)
}

/**
 * Balances of some accounts, exactly: the folded totals plus the entries written since the
 * last fold. Accounts with no entry are absent.
 */
export async function balancesOf(client: QueryClientContract, accounts: string[]) {
  const result = await client.rawQuery(
    `SELECT account, currency, sum(cents)::bigint AS cents FROM (
       SELECT account, currency, balance_cents AS cents FROM ledger_balances WHERE account = ANY(?)
       UNION ALL
       SELECT e.account, e.currency, e.amount_cents FROM ledger_entries e, ledger_folds f
        WHERE e.account = ANY(?) AND e.xid >= f.folded_below
     ) t GROUP BY account, currency`,
    [accounts, accounts]
  )
  const balances = new Map<string, Map<string, number>>()
  for (const row of result.rows as { account: string; currency: string; cents: string }[]) {
    if (!balances.has(row.account)) balances.set(row.account, new Map())
    balances.get(row.account)!.set(row.currency.trim(), Number(row.cents))
  }
  return balances
}

/**
 * Folds the entries of every transaction that has ended since the last fold into the
 * maintained totals. Transactions below the snapshot's xmin can no longer write, so nothing
 * is folded twice or missed; one folder at a time (the row lock on ledger_folds), and a fold
 * that waited for another never moves the mark back.
 */
export async function foldLedger(client: QueryClientContract) {
  const result = await client.rawQuery(
    `WITH fold AS (
       SELECT folded_below AS since, pg_snapshot_xmin(pg_current_snapshot()) AS below
         FROM ledger_folds FOR UPDATE
     ), summed AS (
       SELECT e.account, e.currency, sum(e.amount_cents) AS cents
         FROM ledger_entries e, fold
        WHERE e.xid >= fold.since AND e.xid < fold.below
        GROUP BY e.account, e.currency
     ), applied AS (
       INSERT INTO ledger_balances (account, currency, balance_cents)
       SELECT account, currency, cents FROM summed
       ON CONFLICT (account, currency) DO UPDATE
         SET balance_cents = ledger_balances.balance_cents + EXCLUDED.balance_cents
       RETURNING 1
     )
     UPDATE ledger_folds SET folded_below = greatest(folded_below, (SELECT below FROM fold))
      RETURNING (SELECT count(*) FROM applied)::int AS accounts`
  )
  return Number(result.rows[0]?.accounts ?? 0)
}
