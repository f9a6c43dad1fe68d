import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { CapConflict } from '#services/routing/caps'
import { type Part, insertTogether, rawPart, rowsOf } from '#services/sql/insert_together'

/**
 * What a buyer's funds hold for one offer (DESIGN §16): its price, reserved while the buyer's
 * system is asked, captured when it takes the lead, released when it does not. Kept with the
 * offer's cap units (`sale_attempts.caps`), so whoever closes the attempt can settle it.
 */
export type FundsHold = { buyer_id: string; currency: string; cents: number }

export const isFundsHold = (unit: object): unit is FundsHold => 'cents' in unit

type Account = {
  buyer_id: string
  currency: string
  balance_cents: number
  credit_limit_cents: number
  reserved_cents: number
}
type Change = { buyerId: string; currency: string; balance: number; reserved: number }

/** What a buyer may still be sold for: its balance and credit, less what offers in flight hold. */
export const availableOf = (account: Omit<Account, 'buyer_id' | 'currency'>) =>
  account.balance_cents + account.credit_limit_cents - account.reserved_cents

/**
 * The buyers' funds one routing transaction may draw on, the CapLedger's twin: read without a
 * lock (or locked, for a group that kept losing the race), decided in memory, and written as
 * guarded changes before the sale's other writes. A change that lowers what is available only
 * applies while it stays at or above zero; of two routers counting on the same last cents, the
 * second's guard fails and it decides again (CapConflict). A buyer without an account (no
 * billing mode) is not limited.
 */
export class FundsLedger {
  #accounts = new Map<string, Account>()
  #changes = new Map<string, Change>()

  /** The accounts of these buyers, for CapLedger.read to fetch in its round trip. */
  static query(buyerIds: string[], options: { lock?: boolean } = {}): Part {
    return rawPart(
      `SELECT buyer_id, currency, balance_cents::int, credit_limit_cents::int, reserved_cents::int
         FROM public.buyer_funds WHERE buyer_id = ANY(?::uuid[])
        ${options.lock ? 'ORDER BY buyer_id, currency FOR UPDATE' : ''}`,
      [buyerIds]
    )
  }

  static of(rows: Record<string, any>[]) {
    const ledger = new FundsLedger()
    for (const row of rows) ledger.#accounts.set(keyOf(row.buyer_id, row.currency), row as Account)
    return ledger
  }

  /** Whether the buyer could pay `cents` now (before a ping: at least the rule's reserve). */
  canPay(buyerId: string, currency: string, cents: number) {
    const account = this.#accounts.get(keyOf(buyerId, currency))
    return !account || availableOf(account) >= cents
  }

  /** Reserves an offer's price: the hold, [] for a buyer whose funds are not kept, null when short. */
  hold(buyerId: string, currency: string, cents: number): FundsHold[] | null {
    if (!this.#accounts.has(keyOf(buyerId, currency))) return []
    if (!this.canPay(buyerId, currency, cents)) return null
    this.#change(buyerId, currency, 0, cents)
    return [{ buyer_id: buyerId, currency, cents }]
  }

  /** The buyer took the lead: what was held is spent. */
  capture(holds: FundsHold[]) {
    for (const hold of holds) this.#change(hold.buyer_id, hold.currency, -hold.cents, -hold.cents)
  }

  /** The buyer did not take it: what was held is free again. */
  release(holds: FundsHold[]) {
    for (const hold of holds) this.#change(hold.buyer_id, hold.currency, 0, -hold.cents)
  }

  #change(buyerId: string, currency: string, balance: number, reserved: number) {
    const key = keyOf(buyerId, currency)
    const account = this.#accounts.get(key)
    if (account) {
      account.balance_cents += balance
      account.reserved_cents += reserved
    }
    const change = this.#changes.get(key) ?? { buyerId, currency, balance: 0, reserved: 0 }
    change.balance += balance
    change.reserved += reserved
    this.#changes.set(key, change)
  }

  /** Writes the changes, guarded; throws CapConflict when a concurrent router spent the funds. */
  async write(trx: TransactionClientContract) {
    const changes = [...this.#changes.values()].filter(
      (change) => change.balance !== 0 || change.reserved !== 0
    )
    if (changes.length === 0) return
    const rows = rowsOf(
      [
        ['buyer_id', 'uuid'],
        ['currency', 'text'],
        ['balance', 'int'],
        ['reserved', 'int'],
      ],
      changes.map((change) => ({
        buyer_id: change.buyerId,
        currency: change.currency,
        balance: change.balance,
        reserved: change.reserved,
      }))
    )
    const written = await insertTogether(trx, [
      rawPart(
        `UPDATE public.buyer_funds f
            SET balance_cents = f.balance_cents + t.balance,
                reserved_cents = greatest(f.reserved_cents + t.reserved, 0), updated_at = now()
           FROM (SELECT c.buyer_id, c.currency, v.balance, v.reserved FROM public.buyer_funds c
                 JOIN ${rows.from} ON c.buyer_id = v.buyer_id AND c.currency = v.currency
                 ORDER BY c.buyer_id, c.currency FOR UPDATE OF c) t
          WHERE f.buyer_id = t.buyer_id AND f.currency = t.currency
            AND (t.balance - t.reserved >= 0
                 OR f.balance_cents + f.credit_limit_cents - f.reserved_cents
                    + t.balance - t.reserved >= 0)
          RETURNING f.buyer_id, f.currency`,
        rows.bindings
      ),
    ])
    if (written.length < changes.length) throw new CapConflict()
  }
}

const keyOf = (buyerId: string, currency: string) => `${buyerId}|${currency}`
