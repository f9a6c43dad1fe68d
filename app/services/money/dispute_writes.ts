import { uuidv7 } from 'uuidv7'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Environment } from '#auth/principal'
import type AuditChainService from '#services/audit/audit_chain_service'
import {
  CHAIN_HEAD_COLUMNS,
  type ChainHead,
  type NewEntry,
  chainHeadOf,
} from '#services/audit/audit_chain_service'
import { ledgerInsert, returnMovement } from '#services/money/ledger'
import {
  STATUS_EVENT,
  type SaleRow,
  leadFactsUpdate,
  leadStatusOf,
  leadStatusUpdate,
  leadSummaryOf,
  lockSalesOf,
  saleOf,
} from '#services/money/sale_rows'
import type { AcceptedFile } from '#services/money/dispute_files'
import {
  type DisputeOutcome,
  type DisputeReason,
  type DisputeStatus,
  type DisputedLead,
} from '#services/money/dispute_rules'
import {
  type Column,
  type Part,
  insertRows,
  insertTogether,
  rawPart,
} from '#services/sql/insert_together'
import type OutboxService from '#services/webhooks/outbox_service'
import type { OutboxEvent } from '#services/webhooks/outbox_service'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'

/** A `disputes` row (public schema: index data, no free text). */
export type DisputeRow = {
  id: string
  lead_id: string
  publisher_id: string
  buyer_id: string
  label_id: string | null
  routing_rule_id: string | null
  reason: DisputeReason
  status: DisputeStatus
  price_cents: number
  payout_cents: number
  currency: string
  delivered_at: Date
  opened_at: Date
  respond_by: Date
  decide_by: Date
  responded_at: Date | null
  decided_at: Date | null
  decision: DisputeOutcome | null
  decided_by: string | null
  withdrawn_at: Date | null
  updated_at: Date
  /** The sale's: a sandbox dispute moves sandbox money and tells sandbox endpoints only. */
  environment: Environment
}

/** Who wrote a message of the thread. */
export type Author = 'buyer' | 'publisher' | 'operator'

const DISPUTE_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['lead_id', 'uuid'],
  ['publisher_id', 'uuid'],
  ['buyer_id', 'uuid'],
  ['label_id', 'uuid'],
  ['routing_rule_id', 'uuid'],
  ['reason', 'text'],
  ['status', 'text'],
  ['price_cents', 'int'],
  ['payout_cents', 'int'],
  ['currency', 'text'],
  ['delivered_at', 'timestamptz'],
  ['opened_at', 'timestamptz'],
  ['respond_by', 'timestamptz'],
  ['decide_by', 'timestamptz'],
  ['responded_at', 'timestamptz'],
  ['decided_at', 'timestamptz'],
  ['decision', 'text'],
  ['decided_by', 'text'],
  ['withdrawn_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['environment', 'text'],
]
const MESSAGE_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['dispute_id', 'uuid'],
  ['author', 'text'],
  ['actor', 'text'],
  ['text', 'text'],
  ['created_at', 'timestamptz'],
]
const FILE_COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['dispute_id', 'uuid'],
  ['message_id', 'uuid'],
  ['filename', 'text'],
  ['content_type', 'text'],
  ['size_bytes', 'int'],
  ['sha256', 'char(64)'],
  ['content', 'bytea'],
  ['created_at', 'timestamptz'],
]

/**
 * A sale held for a dispute step: its lead and chain head, the sale the dispute is about (the
 * buyer's), and every sale of the lead (a shared lead's summary is made of them all).
 */
export type LockedSale = { lead: DisputedLead; head: ChainHead; sale: SaleRow; sales: SaleRow[] }

/**
 * Locks a buyer's sale of a lead in the order routing and acceptance take it: the lead and its
 * chain head in one statement, then its facts and its sales. A dispute step and the window
 * closing therefore queue on the same lead row, and whichever comes second sees what the first
 * did. Runs in the publisher's schema; undefined when the lead is gone or this buyer never bought it.
 */
export async function lockSale(
  trx: TransactionClientContract,
  leadId: string,
  buyerId: string
): Promise<LockedSale | undefined> {
  const locked = await trx.rawQuery(
    `SELECT l.id, l.publisher_id, l.status, l.environment, l.consent, l.email_key, l.phone_key,
            l.created_at, ${CHAIN_HEAD_COLUMNS}
       FROM leads l JOIN audit.chain_heads h ON h.lead_id = l.id
      WHERE l.id = ? FOR UPDATE OF l, h`,
    [leadId]
  )
  const lead = locked.rows[0]
  if (!lead) return undefined
  const locks = await lockSalesOf(trx, [leadId])
  const sales = locks.get(leadId) ?? []
  const sale = sales.find((each) => each.buyer_id === buyerId)
  if (!sale) return undefined
  return { lead, head: chainHeadOf(lead), sale, sales }
}

/** A dispute row, locked after its lead (`lockSale`). */
export async function lockDispute(trx: TransactionClientContract, id: string) {
  const result = await trx.rawQuery('SELECT * FROM public.disputes WHERE id = ? FOR UPDATE', [id])
  return result.rows[0] as DisputeRow | undefined
}

/** The deadline a party is waiting on: the publisher's answer, then the decision; none once closed. */
export function nextDeadline(dispute: DisputeRow) {
  if (dispute.status === 'open') return dispute.respond_by
  if (dispute.status === 'responded') return dispute.decide_by
  return null
}

/**
 * Who decided, as a party other than the operator reads it: a rule by its name, an operator's
 * person or key only as "operator" (which one is the operator's to know).
 */
export function decidedByFor(decidedBy: string | null, audience: Author) {
  if (decidedBy === null || audience === 'operator' || decidedBy.startsWith('rule:')) {
    return decidedBy
  }
  return 'operator'
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

/**
 * Everything one dispute step writes, gathered so it commits in one statement: the dispute row
 * (inserted when new, else updated to its final state), the thread, the ledger, the lead and its
 * facts, the audit entries and the events to both parties.
 */
export class DisputeChanges {
  readonly entries: NewEntry[] = []
  readonly events: OutboxEvent[] = []
  readonly parts: Part[] = []

  constructor(
    readonly held: LockedSale,
    readonly dispute: DisputeRow,
    readonly isNew: boolean
  ) {}

  /** One entry on the lead's trail; the lead's status stays unless `statusTo` says otherwise. */
  trail(event: string, actor: string, statusTo = this.held.lead.status) {
    const last = this.entries.at(-1)
    this.entries.push({
      event,
      actor,
      statusFrom: last?.statusTo ?? this.held.lead.status,
      statusTo,
    })
  }

  /**
   * A message of the thread, in the publisher's schema (free text is personal tier); answers the
   * ids its files will have.
   */
  message(author: Author, actor: string, text: string | null, files: AcceptedFile[], now: Date) {
    const id = uuidv7()
    const fileIds = files.map(() => uuidv7())
    this.parts.push(
      insertRows('dispute_messages', MESSAGE_COLUMNS, [
        { id, dispute_id: this.dispute.id, author, actor, text, created_at: now },
      ])
    )
    if (files.length > 0) {
      this.parts.push(
        insertRows(
          'dispute_files',
          FILE_COLUMNS,
          files.map((file, index) => ({
            id: fileIds[index],
            dispute_id: this.dispute.id,
            message_id: id,
            filename: file.filename,
            content_type: file.contentType,
            size_bytes: file.sizeBytes,
            sha256: file.sha256,
            content: file.content,
            created_at: now,
          }))
        )
      )
    }
    return fileIds
  }

  /**
   * The event of this step to each party, each with what that party may see: the publisher its
   * payout and no buyer, the buyer its price and no publisher. The operator's endpoints get both
   * copies; `audience` tells them apart.
   */
  announce(
    type: 'dispute.opened' | 'dispute.responded' | 'dispute.decided',
    now: Date,
    files?: { id: string; sha256: string; size_bytes: number; content_type: string }[]
  ) {
    const dispute = this.dispute
    for (const audience of ['publisher', 'buyer'] as const) {
      this.events.push({
        type,
        publisherId: audience === 'publisher' ? dispute.publisher_id : null,
        buyerId: audience === 'buyer' ? dispute.buyer_id : null,
        leadId: dispute.lead_id,
        environment: dispute.environment,
        data: {
          dispute_id: dispute.id,
          lead_id: dispute.lead_id,
          audience,
          status: dispute.status,
          reason: dispute.reason,
          deadline_at: iso(nextDeadline(dispute)),
          respond_by: iso(dispute.respond_by),
          decide_by: iso(dispute.decide_by),
          decision: dispute.decision,
          decided_by: decidedByFor(dispute.decided_by, audience),
          amount_cents: audience === 'publisher' ? dispute.payout_cents : dispute.price_cents,
          currency: dispute.currency,
          ...(files ? { files } : {}),
          occurred_at: now.toISOString(),
        },
      })
    }
  }

  /**
   * Decides the dispute. Upheld settles itself in the same transaction: the buyer is credited
   * its sale's price and the publisher loses that sale's payout (out of pending, or as a
   * clawback once the sale was final), and the sale is returned; the lead becomes `returned`
   * once every sale of it is (a shared lead's other sales stand). Rejected leaves the sale
   * pending; the clock makes it final once its window has closed.
   */
  decide(outcome: DisputeOutcome, decidedBy: string, now: Date) {
    const { dispute, held } = this
    Object.assign(dispute, {
      status: outcome,
      decision: outcome,
      decided_by: decidedBy,
      decided_at: now,
      updated_at: now,
    })
    this.trail('dispute.decided', decidedBy)
    if (outcome === 'upheld') {
      const returned = held.sale
      if (returned.settlement === 'returned') {
        throw new Error(`Sale ${returned.id} of lead ${returned.lead_id} was returned already`)
      }
      const from = returned.settlement === 'pending' ? 'pending' : 'payable'
      returned.settlement = 'returned'
      const summary = leadSummaryOf(held.sales)
      this.parts.push(
        ledgerInsert(returnMovement(saleOf(returned), from)),
        rawPart(`UPDATE public.sales SET settlement = 'returned' WHERE id = ?`, [returned.id]),
        // A returned sale gives its price back to the buyer's funds, if they paid for it.
        rawPart(
          `UPDATE public.buyer_funds SET balance_cents = balance_cents + ?, updated_at = now()
            WHERE buyer_id = ? AND currency = ? AND created_at <= ?`,
          [returned.price_cents, returned.buyer_id, returned.currency.trim(), returned.sold_at]
        ),
        leadFactsUpdate([{ leadId: returned.lead_id, summary }], now)
      )
      // Returned once no sale of it stands; paid out when the sales it keeps were all paid.
      const status = leadStatusOf(summary, held.lead.status)
      if (status) {
        this.parts.push(leadStatusUpdate([{ leadId: returned.lead_id, status }], now))
        this.trail(STATUS_EVENT[status], decidedBy, status)
      }
    }
    this.announce('dispute.decided', now)
  }

  /** Writes it all in one statement, then the events' deliveries. */
  async commit(
    trx: TransactionClientContract,
    services: { audit: AuditChainService; outbox: OutboxService },
    now: Date
  ) {
    const { dispute, held } = this
    const row = this.isNew
      ? insertRows('public.disputes', DISPUTE_COLUMNS, [dispute])
      : rawPart(
          `UPDATE public.disputes SET status = ?, responded_at = ?, decided_at = ?, decision = ?,
             decided_by = ?, withdrawn_at = ?, updated_at = ? WHERE id = ?`,
          [
            dispute.status,
            dispute.responded_at,
            dispute.decided_at,
            dispute.decision,
            dispute.decided_by,
            dispute.withdrawn_at,
            dispute.updated_at,
            dispute.id,
          ]
        )
    const trail = services.audit.extendTrailInserts([
      {
        head: held.head,
        input: {
          publisherId: held.sale.publisher_id,
          leadId: held.sale.lead_id,
          environment: held.sale.environment,
          entries: this.entries,
        },
      },
    ])
    const events = services.outbox.stage(this.events, now)
    const endpoints = await insertTogether(trx, [
      row,
      ...this.parts,
      ...trail.parts,
      events.insert,
      services.outbox.endpointsFor([
        { publisherId: dispute.publisher_id, buyerId: null, environment: dispute.environment },
        { publisherId: null, buyerId: dispute.buyer_id, environment: dispute.environment },
      ]),
    ])
    await services.outbox.deliver(trx, events, endpoints as SubscribedEndpoint[])
  }
}
