import db from '@adonisjs/lucid/services/db'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { accountPrefix, accountsOf, balancesOf } from '#services/money/ledger'
import { OPEN_STATUSES } from '#services/money/dispute_rules'
import { OPEN_PAYOUT_STATUSES } from '#services/money/payout_maker'
import { DEFAULT_PAGE_SIZE, encodeCursor } from '#services/sql/cursor_pagination'

/** What the operator's settlement overview may be sorted by. */
export const OVERVIEW_SORTS = [
  'name',
  'pending',
  'payable',
  'paid',
  'accepted',
  'returned',
  'open_disputes',
  'margin',
] as const
export type OverviewSort = (typeof OVERVIEW_SORTS)[number]

export type OverviewRequest = {
  /** A label's slug: only its publishers. */
  label?: string
  sort?: OverviewSort
  order?: 'asc' | 'desc'
  limit?: number
  cursor?: string
}

/** One currency of a publisher's money, as its settlement view counts it, with the operator's margin beside it. */
export type OverviewFigures = {
  currency: string
  pending_cents: number
  payable_cents: number
  paid_cents: number
  /** What buyers pay for its sales that stand (not returned; each sale of a shared lead). */
  revenue_cents: number
  /** What those sales earn the publisher. */
  payout_cents: number
  /** revenue − payout: what the operator keeps. */
  margin_cents: number
}

export type OverviewRow = {
  publisher_id: string
  name: string
  slug: string
  label: { slug: string; name: string } | null
  accepted_leads: number
  returned_leads: number
  open_disputes: number
  /** One entry per currency the publisher has money in, by currency code; empty before its first sale. */
  currencies: OverviewFigures[]
}

/**
 * The key each sort orders by, per publisher `p`, in one environment (bound as `?`, the ledger
 * accounts' prefix as the first). Money sorts add up cents whatever the currency: a label has one
 * currency, so its publishers compare.
 */
const balanceOf = (kind: 'pending' | 'payable') => `(
  SELECT -coalesce(sum(t.cents), 0) FROM (
    SELECT b.balance_cents AS cents FROM ledger_balances b
     WHERE b.account = ? || 'publisher:' || p.id || ':${kind}'
    UNION ALL
    SELECT e.amount_cents FROM ledger_entries e, ledger_folds f
     WHERE e.account = ? || 'publisher:' || p.id || ':${kind}' AND e.xid >= f.folded_below
  ) t)`
const SORT_KEYS: Record<Exclude<OverviewSort, 'name'>, string> = {
  pending: balanceOf('pending'),
  payable: balanceOf('payable'),
  paid: `(SELECT coalesce(sum(o.amount_cents), 0) FROM payouts o
           WHERE o.publisher_id = p.id AND o.status = 'paid' AND o.environment = ?)`,
  accepted: `(SELECT count(*) FROM sales s
               WHERE s.publisher_id = p.id AND s.settlement <> 'returned' AND s.environment = ?)`,
  returned: `(SELECT count(*) FROM sales s
               WHERE s.publisher_id = p.id AND s.settlement = 'returned' AND s.environment = ?)`,
  open_disputes: `(SELECT count(*) FROM disputes d
                    WHERE d.publisher_id = p.id AND d.status = ANY('{${OPEN_STATUSES.join(',')}}'::text[])
                      AND d.environment = ?)`,
  margin: `(SELECT coalesce(sum(s.price_cents - s.payout_cents), 0) FROM sales s
             WHERE s.publisher_id = p.id AND s.settlement <> 'returned' AND s.environment = ?)`,
}

/** The bindings of a sort key: the accounts' prefix twice for a balance, else the environment. */
function sortBindings(sort: Exclude<OverviewSort, 'name'>, environment: Environment) {
  if (sort === 'pending' || sort === 'payable') {
    return [accountPrefix(environment), accountPrefix(environment)]
  }
  return [environment]
}

/** Names sort as people read them ("alpha" before "Bravo" before "Émile"). */
const BY_NAME = `p.name COLLATE "und-x-icu"`

/**
 * The operator's settlement overview: every publisher side by side with
 * what its settlement view shows (pending, payable and paid money from the
 * ledger and its payouts, accepted and returned volume, open disputes) and
 * the margin the operator keeps on its sales. The page is chosen first (one
 * query, ordered by the key asked for), then its figures are read for the
 * publishers on it only, a handful of set-based queries whatever the page
 * size. Paged by position (`limit`, and a cursor that is the next offset):
 * a money order moves as sales come in, so there is no stable key to page by.
 */
export async function settlementOverview(principal: Principal, request: OverviewRequest) {
  if (!principal.isOperator) throw ApiProblem.notFound('publisher')
  const limit = request.limit ?? DEFAULT_PAGE_SIZE
  const offset = request.cursor ? offsetOf(request.cursor) : 0
  const sort = request.sort ?? 'name'
  const descending = (request.order ?? (sort === 'name' ? 'asc' : 'desc')) === 'desc'

  const query = db
    .from('publishers as p')
    .leftJoin('labels as l', 'l.id', 'p.label_id')
    .select('p.id', 'p.name', 'p.slug', 'l.slug as label_slug', 'l.name as label_name')
  if (request.label) query.where('l.slug', request.label)
  const direction = descending ? 'desc' : 'asc'
  if (sort !== 'name') {
    query.orderByRaw(`${SORT_KEYS[sort]} ${direction}`, sortBindings(sort, principal.environment))
  }
  query
    .orderByRaw(`${BY_NAME} ${sort === 'name' ? direction : 'asc'}`)
    .orderBy('p.id', 'asc')
    .offset(offset)
    .limit(limit + 1)
  const rows = await query
  const onPage = rows.slice(0, limit)
  const figures = await figuresOf(
    onPage.map((row) => row.id),
    principal.environment
  )
  return {
    data: onPage.map((row): OverviewRow => ({
      publisher_id: row.id,
      name: row.name,
      slug: row.slug,
      label: row.label_slug ? { slug: row.label_slug, name: row.label_name } : null,
      ...figures.get(row.id)!,
    })),
    nextCursor: rows.length > limit ? encodeCursor(`offset:${offset + limit}`) : null,
  }
}

/**
 * The platform's own side, above the list: the operator's margin still pending (sales inside
 * their return window) and earned (final), from its two ledger accounts, per currency; the
 * disputes waiting for someone and the payouts not yet paid.
 */
export async function settlementTotals(principal: Principal) {
  if (!principal.isOperator) throw ApiProblem.notFound('publisher')
  const environment = principal.environment
  const account = accountsOf(environment)
  const [balances, disputes, payouts] = await Promise.all([
    balancesOf(db.connection(), [account.marginPending, account.marginEarned]),
    db
      .from('disputes')
      .where('environment', environment)
      .whereIn('status', [...OPEN_STATUSES])
      .select(
        db.raw(`count(*) FILTER (WHERE status = 'open')::int AS open`),
        db.raw(`count(*) FILTER (WHERE status = 'responded')::int AS responded`)
      )
      .first(),
    db
      .from('payouts')
      .where('environment', environment)
      .whereIn('status', [...OPEN_PAYOUT_STATUSES])
      .groupBy('currency')
      .orderBy('currency')
      .select(
        'currency',
        db.raw('count(*)::int AS payouts'),
        db.raw('sum(amount_cents)::bigint AS cents')
      ),
  ])
  const pending = balances.get(account.marginPending)
  const earned = balances.get(account.marginEarned)
  const currencies = [...new Set([...(pending?.keys() ?? []), ...(earned?.keys() ?? [])])].sort()
  return {
    // The ledger counts the margin as owed by the platform (negative); the operator reads it as its own.
    margin: currencies.map((currency) => ({
      currency,
      pending_cents: -(pending?.get(currency) ?? 0),
      earned_cents: -(earned?.get(currency) ?? 0),
    })),
    disputes: { open: disputes?.open ?? 0, responded: disputes?.responded ?? 0 },
    unpaid_payouts: payouts.map((row) => ({
      currency: String(row.currency).trim(),
      payouts: row.payouts,
      amount_cents: Number(row.cents),
    })),
  }
}

type Volume = Pick<
  OverviewRow,
  'accepted_leads' | 'returned_leads' | 'open_disputes' | 'currencies'
>

/** The figures of some publishers: four set-based reads and one of the ledger, whatever their number. */
async function figuresOf(
  publisherIds: string[],
  environment: Environment
): Promise<Map<string, Volume>> {
  const account = accountsOf(environment)
  const result = new Map<string, Volume>(
    publisherIds.map((id) => [
      id,
      { accepted_leads: 0, returned_leads: 0, open_disputes: 0, currencies: [] },
    ])
  )
  if (publisherIds.length === 0) return result
  const accounts = publisherIds.flatMap((id) => [
    account.publisherPending(id),
    account.publisherPayable(id),
  ])
  const [sales, paid, disputes, balances] = await Promise.all([
    db
      .from('sales')
      .whereIn('publisher_id', publisherIds)
      .where('environment', environment)
      .groupBy('publisher_id', 'currency')
      .select(
        'publisher_id',
        'currency',
        db.raw(`count(*) FILTER (WHERE settlement <> 'returned')::int AS accepted`),
        db.raw(`count(*) FILTER (WHERE settlement = 'returned')::int AS returned`),
        db.raw(
          `coalesce(sum(price_cents) FILTER (WHERE settlement <> 'returned'), 0)::bigint AS revenue`
        ),
        db.raw(
          `coalesce(sum(payout_cents) FILTER (WHERE settlement <> 'returned'), 0)::bigint AS payout`
        )
      ),
    db
      .from('payouts')
      .whereIn('publisher_id', publisherIds)
      .where('environment', environment)
      .where('status', 'paid')
      .groupBy('publisher_id', 'currency')
      .select('publisher_id', 'currency', db.raw('sum(amount_cents)::bigint AS cents')),
    db
      .from('disputes')
      .whereIn('publisher_id', publisherIds)
      .where('environment', environment)
      .whereIn('status', [...OPEN_STATUSES])
      .groupBy('publisher_id')
      .select('publisher_id', db.raw('count(*)::int AS open')),
    balancesOf(db.connection(), accounts),
  ])

  const money = new Map<string, Map<string, OverviewFigures>>()
  const figure = (publisherId: string, code: string) => {
    const currency = code.trim()
    if (!money.has(publisherId)) money.set(publisherId, new Map())
    const byCurrency = money.get(publisherId)!
    if (!byCurrency.has(currency)) {
      byCurrency.set(currency, {
        currency,
        pending_cents: 0,
        payable_cents: 0,
        paid_cents: 0,
        revenue_cents: 0,
        payout_cents: 0,
        margin_cents: 0,
      })
    }
    return byCurrency.get(currency)!
  }
  for (const row of sales) {
    const volume = result.get(row.publisher_id)!
    volume.accepted_leads += row.accepted
    volume.returned_leads += row.returned
    const target = figure(row.publisher_id, row.currency)
    target.revenue_cents = Number(row.revenue)
    target.payout_cents = Number(row.payout)
    target.margin_cents = target.revenue_cents - target.payout_cents
  }
  for (const row of paid) figure(row.publisher_id, row.currency).paid_cents = Number(row.cents)
  for (const row of disputes) result.get(row.publisher_id)!.open_disputes = row.open
  for (const publisherId of publisherIds) {
    // The ledger counts what the platform owes as negative; the operator reads it as owed to the publisher.
    const pending = balances.get(account.publisherPending(publisherId))
    const payable = balances.get(account.publisherPayable(publisherId))
    for (const [currency, cents] of pending ?? []) {
      figure(publisherId, currency).pending_cents = -cents
    }
    for (const [currency, cents] of payable ?? []) {
      figure(publisherId, currency).payable_cents = -cents
    }
    result.get(publisherId)!.currencies = [...(money.get(publisherId)?.values() ?? [])].sort(
      (a, b) => a.currency.localeCompare(b.currency)
    )
  }
  return result
}

/** The position a cursor stands for (base64url like the API's cursors, opaque to the page); null for junk. */
function positionOf(cursor: string) {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : ''
  const match = /^offset:(\d{1,9})$/.exec(text)
  return match ? Number(match[1]) : null
}

/** A cursor from the address, or none when it was edited into something no page gave. */
export function usableOverviewCursor(cursor: string | undefined) {
  return cursor !== undefined && positionOf(cursor) !== null ? cursor : undefined
}

function offsetOf(cursor: string) {
  const position = positionOf(cursor)
  if (position === null) {
    throw ApiProblem.unprocessable([
      {
        field: 'cursor',
        code: 'cursor',
        message: 'Pass the next_cursor of a previous page unchanged.',
      },
    ])
  }
  return position
}
