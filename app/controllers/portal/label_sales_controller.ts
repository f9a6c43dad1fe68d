import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import { updateLabelValidator } from '#validators/label'
import LabelTransformer from '#transformers/label_transformer'
import { NEVER_PINGED } from '#services/routing/sale_settings'

/** How a label's leads are sold, in the operator's portal: PATCH /v1/labels/{id}'s `sale`. */
@inject()
export default class LabelSalesController {
  constructor(protected labels: LabelService) {}

  async edit({ params, inertia, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('update')
    return inertia.render('operator/labels/selling', {
      label: LabelTransformer.transform(label),
      never_pinged: [...NEVER_PINGED],
    })
  }

  /** Only the sale is taken from the form: the rest of the label is its edit page's. */
  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('update')
    const { sale } = await request.validateUsing(updateLabelValidator)
    if (sale) await this.labels.update(principal, label, { sale })
    session.flash('notice', { severity: 'success', summary: `Selling of ${label.name} saved` })
    return response.redirect().toPath(`/operator/labels/${label.id}/selling`)
  }
}
