import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import AuditChainService, {
  CHAIN_HEAD_COLUMNS,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import { accountsOf, ledgerInsert, movement } from '#services/money/ledger'
import { assertFiltersAllowed, environmentWall } from '#services/leads/lead_service'
import { OPEN_PAYOUT_STATUSES, type PayoutLine } from '#services/money/payout_maker'
import {
  STATUS_EVENT,
  leadFactsUpdate,
  leadStatusOf,
  leadStatusUpdate,
  leadSummaryOf,
  lockSalesOf,
} from '#services/money/sale_rows'
import TenancyService from '#services/platform/tenancy_service'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { insertTogether, rawPart } from '#services/sql/insert_together'
import { transaction } from '#services/sql/transaction'
import OutboxService from '#services/webhooks/outbox_service'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'

export const PAYOUT_STATUSES = ['scheduled', 'processing', 'paid', 'failed'] as const
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]

export type PayoutRow = {
  id: string
  publisher_id: string
  label_id: string | null
  currency: string
  period_start: string | null
  period_end: string
  amount_cents: number
  lead_count: number
  status: PayoutStatus
  reference: string | null
  failure: string | null
  created_at: Date
  updated_at: Date
  paid_at: Date | null
  /** Whose money it pays: live sales, or the sandbox's (sandbox accounts, sandbox endpoints). */
  environment: Environment
}

export type PayoutFilters = PageRequest & {
  publisher_id?: string
  status?: PayoutStatus
  environment?: Environment
}

/** Leads paid out per statement: the audit entries of a chunk stay well below Postgres's 65,535 bindings. */
const CHUNK = 1000

const NOBODY = '00000000-0000-0000-0000-000000000000'

const COLUMNS = [
  'id',
  'publisher_id',
  'label_id',
  'currency',
  db.raw('period_start::text AS period_start'),
  db.raw('period_end::text AS period_end'),
  'amount_cents',
  'lead_count',
  'status',
  'reference',
  'failure',
  'created_at',
  'updated_at',
  'paid_at',
  'environment',
]

function rowOf(row: Record<string, any>): PayoutRow {
  return {
    ...(row as PayoutRow),
    currency: String(row.currency).trim(),
    amount_cents: Number(row.amount_cents),
  }
}

/**
 * Payouts as their parties see them (a publisher its own, the operator
 * every one), and the operator's two ways of closing one: paid — the money
 * left, so the ledger books it, the leads become `paid_out` and the
 * publisher is told — or failed, which releases its sales for the next run.
 */
@inject()
export default class PayoutService {
  constructor(
    protected tenancy: TenancyService,
    protected audit: AuditChainService,
    protected outbox: OutboxService,
    protected accessLog: AccessLogService
  ) {}

  /** Behind the environment wall (lead_service.ts): the live operator reads (and marks) any one by its id. */
  private visible(principal: Principal) {
    const query = db.from('payouts').select(COLUMNS)
    if (!principal.isOperator) query.where('publisher_id', principal.publisherId ?? NOBODY)
    environmentWall(query, principal)
    return query
  }

  /** Newest first, one environment at a time (the caller's unless the operator asks); the operator may name a publisher, anyone a status. */
  async list(principal: Principal, filters: PayoutFilters) {
    assertFiltersAllowed(principal, { environment: filters.environment })
    const query = this.visible(principal)
    query.where('environment', filters.environment ?? principal.environment)
    if (filters.publisher_id) query.where('publisher_id', filters.publisher_id)
    if (filters.status) query.where('status', filters.status)
    const page = await paginate(query, filters)
    return { data: page.data.map(rowOf), nextCursor: page.nextCursor }
  }

  /** One payout with its lines; another publisher's answers 404. */
  async find(principal: Principal, id: string) {
    const row = await this.visible(principal).where('id', id).first()
    if (!row) throw ApiProblem.notFound('payout')
    const rows = await db
      .from('payout_lines')
      .where('payout_id', id)
      .orderBy('id')
      .select('lead_id', 'kind', 'amount_cents')
    const lines: PayoutLine[] = rows.map((line) => ({
      ...line,
      amount_cents: Number(line.amount_cents),
    }))
    return { payout: rowOf(row), lines }
  }

  /**
   * The money left the platform's bank: in the publisher's schema, one
   * transaction books the payout in the ledger (the payable balance rises by
   * the amount, cash falls by it), turns each sale still final into
   * `paid_out` (its lead too once every sale it keeps is paid, with an audit
   * entry by the operator) and sends `payout.processed` to the publisher's
   * endpoints. A sale returned since the run stays returned: its clawback
   * nets against the next payout.
   */
  async markPaid(principal: Principal, id: string, reference: string, now = new Date()) {
    const publisher = await this.publisherOf(principal, id)
    await this.tenancy.run(publisher, async (trx) => {
      const payout = await this.lockOpen(trx, id)
      const onPayout = await trx.rawQuery(
        `SELECT lead_id, sale_id FROM public.payout_lines WHERE payout_id = ? AND kind = 'earning'
          ORDER BY lead_id, sale_id`,
        [id]
      )
      const saleIds = new Set<string>(onPayout.rows.map((row: { sale_id: string }) => row.sale_id))
      const ids = [...new Set<string>(onPayout.rows.map((row: { lead_id: string }) => row.lead_id))]
      let paid = 0
      for (let start = 0; start < ids.length; start += CHUNK) {
        const chunk = ids.slice(start, start + CHUNK)
        paid += await this.payLeads(trx, principal, payout, chunk, saleIds, now)
      }
      // A sandbox payout leaves the sandbox's cash: no live balance moves.
      const account = accountsOf(payout.environment)
      const ledger = movement(
        'payout',
        [
          [account.publisherPayable(payout.publisher_id), payout.amount_cents],
          [account.cash, -payout.amount_cents],
        ],
        { currency: payout.currency, publisherId: payout.publisher_id, reference: payout.id }
      )
      const events = this.outbox.stage(
        [
          {
            type: 'payout.processed',
            publisherId: payout.publisher_id,
            buyerId: null,
            leadId: null,
            environment: payout.environment,
            data: {
              kind: 'publisher_payout',
              payout_id: payout.id,
              publisher_id: payout.publisher_id,
              amount_cents: payout.amount_cents,
              currency: payout.currency,
              lead_count: payout.lead_count,
              period_start: payout.period_start,
              period_end: payout.period_end,
              reference,
              processed_at: now.toISOString(),
            },
          },
        ],
        now
      )
      const endpoints = await insertTogether(trx, [
        ledgerInsert(ledger),
        rawPart(
          `UPDATE public.payouts SET status = 'paid', reference = ?, paid_at = ?, updated_at = ?
            WHERE id = ?`,
          [reference, now, now, id]
        ),
        events.insert,
        this.outbox.endpointsFor([
          { publisherId: payout.publisher_id, buyerId: null, environment: payout.environment },
        ]),
      ])
      await this.outbox.deliver(trx, events, endpoints as SubscribedEndpoint[])
      await this.accessLog.record(
        principal.actor,
        'payout.paid',
        { type: 'payout', id, publisherId: payout.publisher_id },
        {
          details: {
            amount_cents: payout.amount_cents,
            currency: payout.currency,
            environment: payout.environment,
            leads: paid,
          },
          trx,
        }
      )
    })
    return this.find(principal, id)
  }

  /**
   * The money did not arrive: the payout is closed as failed, which releases
   * its sales (a payout holds them by its lines while open), so the next run
   * pays them again. Nothing was booked in the ledger for it, so nothing is
   * reversed.
   */
  async markFailed(principal: Principal, id: string, reason: string, now = new Date()) {
    await this.publisherOf(principal, id)
    await transaction(async (trx) => {
      const payout = await this.lockOpen(trx, id)
      // Its sales are free again by its status alone: a payout takes sales by its lines.
      await trx.rawQuery(
        `UPDATE public.payouts SET status = 'failed', failure = ?, updated_at = ? WHERE id = ?`,
        [reason, now, id]
      )
      await this.accessLog.record(
        principal.actor,
        'payout.failed',
        { type: 'payout', id, publisherId: payout.publisher_id },
        {
          details: {
            amount_cents: payout.amount_cents,
            currency: payout.currency,
            environment: payout.environment,
          },
          trx,
        }
      )
    })
    return this.find(principal, id)
  }

  private async publisherOf(principal: Principal, id: string) {
    const row = await this.visible(principal).where('id', id).first()
    if (!row) throw ApiProblem.notFound('payout')
    return Publisher.findOrFail(row.publisher_id)
  }

  /** The payout, locked; a paid or failed one is closed (409), so marking twice changes nothing. */
  private async lockOpen(trx: TransactionClientContract, id: string) {
    const locked = await trx.rawQuery(
      `SELECT id, publisher_id, currency, period_start::text AS period_start,
              period_end::text AS period_end, amount_cents, lead_count, status, environment
         FROM public.payouts WHERE id = ? FOR UPDATE`,
      [id]
    )
    const payout = rowOf(locked.rows[0])
    if (!(OPEN_PAYOUT_STATUSES as readonly string[]).includes(payout.status)) {
      throw ApiProblem.conflict(
        'payout_closed',
        `This payout is ${payout.status} already; a payout is marked paid or failed once.`
      )
    }
    return payout
  }

  /**
   * The sales of one chunk of a payout's leads become `paid_out`. The leads
   * and their chain heads are locked first, then their facts and sales —
   * the order routing, acceptance and disputes take them in. Every sale of
   * the payout gets its id (the payout that paid it: a clawback of it nets
   * against the next payout); only those still final become `paid_out`. A
   * lead becomes `paid_out` (with an audit entry) once every sale it keeps
   * is: a shared lead's sale still in its window keeps it matched.
   */
  private async payLeads(
    trx: TransactionClientContract,
    principal: Principal,
    payout: PayoutRow,
    leadIds: string[],
    onPayout: Set<string>,
    now: Date
  ) {
    const locked = await trx.rawQuery(
      `SELECT l.id, l.status, ${CHAIN_HEAD_COLUMNS}
         FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
        WHERE l.id = ANY(?::uuid[]) ORDER BY l.id FOR UPDATE OF l, h`,
      [leadIds]
    )
    const salesOf = await lockSalesOf(trx, leadIds)
    const paying = [...salesOf.values()]
      .flat()
      .filter((sale) => onPayout.has(sale.id) && sale.payout_id === null)
    if (paying.length === 0) return 0
    const still = paying.filter((sale) => sale.settlement === 'payable')
    for (const sale of still) sale.settlement = 'paid_out'
    const leads = new Map<string, Record<string, any>>(
      locked.rows.map((row: Record<string, any>) => [row.id, row])
    )
    const paidLeads = [...new Set(paying.map((sale) => sale.lead_id))]
    const summaries = paidLeads.map((leadId) => ({
      leadId,
      summary: leadSummaryOf(salesOf.get(leadId)!),
      payoutId: payout.id,
    }))
    // A lead whose personal row was erased keeps no trail here; its facts are paid out all the same.
    const changed = summaries.flatMap(({ leadId, summary }) => {
      const lead = leads.get(leadId)
      const status = lead ? leadStatusOf(summary, lead.status) : null
      return lead && status ? [{ leadId, status, from: lead.status as string }] : []
    })
    const trails = changed.map(({ leadId, status, from }) => ({
      head: chainHeadOf(leads.get(leadId)!),
      input: {
        publisherId: payout.publisher_id,
        leadId,
        environment: payout.environment,
        entries: [
          {
            event: STATUS_EVENT[status],
            actor: principal.actor,
            statusFrom: from,
            statusTo: status,
          },
        ],
      },
    }))
    const trail = trails.length > 0 ? this.audit.extendTrailInserts(trails).parts : []
    await insertTogether(trx, [
      ...(changed.length > 0 ? [leadStatusUpdate(changed, now)] : []),
      rawPart(
        `UPDATE public.sales SET payout_id = ?,
                settlement = CASE WHEN settlement = 'payable' THEN 'paid_out' ELSE settlement END
          WHERE id = ANY(?::uuid[])`,
        [payout.id, paying.map((sale) => sale.id)]
      ),
      leadFactsUpdate(summaries, now),
      ...trail,
    ])
    return still.length
  }
}
