import { inject } from '@adonisjs/core'
import vine from '@vinejs/vine'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import { ownerDirectory } from '#services/catalogue/owner_directory'
import AdjustmentService from '#services/money/adjustment_service'
import DisputeReader from '#services/money/dispute_reader'
import { DISPUTE_STATUSES } from '#services/money/dispute_rules'
import PayoutService from '#services/money/payout_service'
import SettlementPolicyService from '#services/money/settlement_policy_service'
import SettlementService from '#services/money/settlement_service'
import {
  OVERVIEW_SORTS,
  settlementOverview,
  settlementTotals,
  usableOverviewCursor,
} from '#services/money/settlement_overview'
import { usableCursor } from '#controllers/portal/disputes_controller'
import DisputeTransformer from '#transformers/dispute_transformer'
import LabelTransformer from '#transformers/label_transformer'
import PayoutTransformer from '#transformers/payout_transformer'
import SettlementOverviewTransformer from '#transformers/settlement_overview_transformer'
import SettlementPolicyTransformer from '#transformers/settlement_policy_transformer'
import SettlementTotalsTransformer from '#transformers/settlement_totals_transformer'
import SettlementTransformer from '#transformers/settlement_transformer'
import { pagination, slug, strictObject } from '#validators/helpers'
import { listDisputesValidator } from '#validators/dispute'
import { pageValidator } from '#validators/pagination'
import { adjustmentValidator, settlementPolicyValidator } from '#validators/settlement'

/** `/operator/settlement`'s query: a label, an order, a page. Only this page asks it. */
const overviewValidator = vine.create(
  strictObject({
    label: slug().optional(),
    sort: vine.enum(OVERVIEW_SORTS).optional(),
    order: vine.enum(['asc', 'desc'] as const).optional(),
    ...pagination,
  })
)

/** Payouts listed on a publisher's settlement page; the payouts page has them all. */
const RECENT_PAYOUTS = 20

/**
 * The operator's money: every publisher's settlement side by side, one
 * publisher's settlement (the figures of GET /v1/settlement?publisher_id=,
 * its payouts, a manual adjustment), every dispute, and a label's settlement
 * rules. The same services, policies, validators and JSON as the API.
 */
@inject()
export default class MoneyOperatorController {
  constructor(
    protected settlement: SettlementService,
    protected adjustments: AdjustmentService,
    protected payouts: PayoutService,
    protected disputes: DisputeReader,
    protected labels: LabelService,
    protected policies: SettlementPolicyService
  ) {}

  async overview({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('view')
    // A hand-edited address (a junk sort or cursor) falls back to the first page by name.
    const [invalid, filters] = await overviewValidator.tryValidate(request.qs())
    const [page, totals, labels] = await Promise.all([
      settlementOverview(
        principal,
        invalid ? {} : { ...filters, cursor: usableOverviewCursor(filters.cursor) }
      ),
      settlementTotals(principal),
      this.labels.visibleTo(principal).orderBy('name').orderBy('id'),
    ])
    return inertia.render('money/operator/settlement', {
      publishers: SettlementOverviewTransformer.transform(page.data),
      next_cursor: page.nextCursor,
      totals: SettlementTotalsTransformer.transform(totals),
      labels: LabelTransformer.transform(labels).useVariant('toChoice'),
    })
  }

  /** One publisher's settlement, as GET /v1/settlement?publisher_id= answers, with its payouts. */
  async show({ params, request, inertia, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('view')
    await bouncer.with('PayoutPolicy').authorize('viewList')
    const publisher = await this.settlement.publisherFor(principal, params.id)
    const [invalid, page] = await pageValidator.tryValidate(request.qs())
    const [figures, payouts] = await Promise.all([
      this.settlement.settlementOf(publisher),
      this.payouts.list(principal, {
        publisher_id: publisher.id,
        limit: RECENT_PAYOUTS,
        cursor: invalid ? undefined : usableCursor(page.cursor),
      }),
    ])
    return inertia.render('money/operator/publisher', {
      publisher: { id: publisher.id, name: publisher.name, slug: publisher.slug },
      settlement: SettlementTransformer.transform(figures),
      payouts: await serializePage(PayoutTransformer.transform(payouts.data), payouts.nextCursor),
      may_adjust: await bouncer.with('SettlementPolicy').allows('adjust'),
    })
  }

  /** POST /v1/ledger/adjustments for the publisher of the page. */
  async adjust({ params, request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('SettlementPolicy').authorize('adjust')
    // Another publisher, or none, answers 404 before the form is read.
    const publisher = await this.settlement.publisherFor(principal, params.id)
    const input = await adjustmentValidator.validate({
      ...request.body(),
      publisher_id: publisher.id,
    })
    await this.adjustments.adjust(principal, input)
    const amount = formatCents(input.amount_cents, input.currency)
    session.flash('notice', {
      severity: 'success',
      summary:
        input.amount_cents > 0
          ? `${publisher.name} credited ${amount}: payable with its next payout`
          : `${formatCents(-input.amount_cents, input.currency)} taken back from ${publisher.name}`,
    })
    return response.redirect().toPath(`/operator/settlement/${publisher.id}`)
  }

  /** Every dispute, newest first, with the deadline now running; by status, publisher or buyer. */
  async disputesIndex({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('DisputePolicy').authorize('view')
    const [invalid, filters] = await listDisputesValidator.tryValidate(request.qs())
    const [page, directory] = await Promise.all([
      this.disputes.list(
        principal,
        invalid ? {} : { ...filters, cursor: usableCursor(filters.cursor) }
      ),
      ownerDirectory(principal),
    ])
    return inertia.render('money/operator/disputes', {
      disputes: DisputeTransformer.transform(page.data, 'operator', directory).useVariant(
        'withParties'
      ),
      next_cursor: page.nextCursor,
      publishers: choicesOf(directory?.publishers),
      buyers: choicesOf(directory?.buyers),
      statuses: [...DISPUTE_STATUSES],
    })
  }

  /** A label's settlement rules: GET /v1/labels/{id}/settlement-policy's. */
  async rules({ params, inertia, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('SettlementPolicy').authorize('viewRules')
    return inertia.render('operator/labels/settlement_rules', {
      label: LabelTransformer.transform(label).useVariant('toReference'),
      policy: SettlementPolicyTransformer.transform(await this.policies.show(label)),
      may_change: await bouncer.with('SettlementPolicy').allows('changeRules'),
    })
  }

  /** PUT /v1/labels/{id}/settlement-policy's validator and service method. */
  async updateRules({ params, request, response, session, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('SettlementPolicy').authorize('changeRules')
    const policy = await request.validateUsing(settlementPolicyValidator)
    await this.policies.replace(principal, label, policy)
    session.flash('notice', {
      severity: 'success',
      summary: `Settlement rules of ${label.name} saved`,
    })
    return response.redirect().toPath(`/operator/labels/${label.id}/settlement-rules`)
  }
}

function choicesOf(owners: { id: string; name: string }[] | undefined) {
  return (owners ?? []).map((owner) => ({ value: owner.id, label: owner.name }))
}

/** An amount for a notice, in its currency ("€25.00"). */
export function formatCents(cents: number, currency: string) {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(cents / 100)
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`
  }
}
