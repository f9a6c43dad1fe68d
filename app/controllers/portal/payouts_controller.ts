import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import { ownerDirectory, ownerNameOf } from '#services/catalogue/owner_directory'
import PayoutRunService, { type GroupRun } from '#services/money/payout_run_service'
import PayoutService, { PAYOUT_STATUSES } from '#services/money/payout_service'
import LabelTransformer from '#transformers/label_transformer'
import PayoutTransformer from '#transformers/payout_transformer'
import {
  createPayoutRunValidator,
  listPayoutsValidator,
  markPayoutFailedValidator,
  markPayoutPaidValidator,
} from '#validators/payout'
import { formatCents } from '#controllers/portal/money_operator_controller'
import { usableCursor } from '#controllers/portal/disputes_controller'

/**
 * The operator's payouts: the list (by status or publisher), a payout with
 * its lines, "Run payouts now", and marking one paid or failed. The same
 * validators, PayoutPolicy, services and JSON as /v1/payouts and
 * /v1/payout-runs.
 */
@inject()
export default class PortalPayoutsController {
  constructor(
    protected payouts: PayoutService,
    protected runs: PayoutRunService,
    protected labels: LabelService
  ) {}

  async index({ request, inertia, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('viewList')
    // A hand-edited address (a junk status or cursor) falls back to the first page of every payout.
    const [invalid, filters] = await listPayoutsValidator.tryValidate(request.qs())
    const [page, directory, labels] = await Promise.all([
      this.payouts.list(
        principal,
        invalid ? {} : { ...filters, cursor: usableCursor(filters.cursor) }
      ),
      ownerDirectory(principal),
      this.labels.visibleTo(principal).orderBy('name').orderBy('id'),
    ])
    const names = new Map(directory?.publishers.map((owner) => [owner.id, owner.name]))
    return inertia.render('money/operator/payouts', {
      payouts: await serializePage(
        PayoutTransformer.transform(page.data, undefined, names).useVariant('withPublisherName'),
        page.nextCursor
      ),
      publishers: (directory?.publishers ?? []).map((owner) => ({
        value: owner.id,
        label: owner.name,
      })),
      labels: LabelTransformer.transform(labels).useVariant('toChoice'),
      statuses: [...PAYOUT_STATUSES],
      may_change: await bouncer.with('PayoutPolicy').allows('run'),
    })
  }

  async show({ params, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('view')
    const { payout, lines } = await this.payouts.find(principal, params.id)
    return inertia.render('money/operator/payout', {
      payout: PayoutTransformer.transform(payout, lines),
      publisher_name: await ownerNameOf(principal, {
        publisherId: payout.publisher_id,
        buyerId: null,
      }),
      may_change: await bouncer.with('PayoutPolicy').allows('markPaid'),
    })
  }

  /** POST /v1/payout-runs: every label (or the one named), for its last full period or the day named. */
  async run({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('run')
    const input = await request.validateUsing(createPayoutRunValidator)
    const result = await this.runs.run(principal, input)
    session.flash('notice', { severity: 'success', summary: runSummary(result.runs) })
    return response.redirect().toPath('/operator/payouts')
  }

  async markPaid({ params, request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('markPaid')
    // Another owner's payout, or none, answers 404 before the form is read.
    await this.payouts.find(principal, params.id)
    const { reference } = await request.validateUsing(markPayoutPaidValidator)
    const { payout } = await this.payouts.markPaid(principal, params.id, reference)
    session.flash('notice', {
      severity: 'success',
      summary: `Payout of ${formatCents(payout.amount_cents, payout.currency)} marked paid: ${
        payout.lead_count === 1 ? 'its lead is' : `its ${payout.lead_count} leads are`
      } paid out`,
    })
    return response.redirect().toPath(`/operator/payouts/${params.id}`)
  }

  async markFailed({ params, request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('PayoutPolicy').authorize('markFailed')
    await this.payouts.find(principal, params.id)
    const { reason } = await request.validateUsing(markPayoutFailedValidator)
    await this.payouts.markFailed(principal, params.id, reason)
    session.flash('notice', {
      severity: 'warn',
      summary: 'Payout marked failed: its sales will be paid by the next run',
    })
    return response.redirect().toPath(`/operator/payouts/${params.id}`)
  }
}

/** What a run did, in one sentence: the payouts it created and their totals, or why none. */
function runSummary(runs: GroupRun[]) {
  const totals = new Map<string, { payouts: number; cents: number }>()
  for (const total of runs.flatMap((run) => run.totals)) {
    const sum = totals.get(total.currency) ?? { payouts: 0, cents: 0 }
    sum.payouts += total.payouts
    sum.cents += total.amount_cents
    totals.set(total.currency, sum)
  }
  const count = runs.reduce((sum, run) => sum + run.payouts, 0)
  if (count === 0) {
    const periods = [...new Set(runs.map((run) => run.period_end))].sort().join(', ')
    return `Payout run done: nothing was due for the period ending ${periods} (no publisher reached its minimum, or each was paid already)`
  }
  const amounts = [...totals].map(([currency, sum]) => formatCents(sum.cents, currency)).join(' + ')
  return `Payout run done: ${count} ${count === 1 ? 'payout' : 'payouts'} created, ${amounts}`
}
