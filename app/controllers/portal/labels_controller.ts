import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import { createLabelValidator, listLabelsValidator, updateLabelValidator } from '#validators/label'
import LabelTransformer from '#transformers/label_transformer'

/** The operator's labels and their branding: the same validators and LabelService as /v1/labels. */
@inject()
export default class LabelsController {
  constructor(protected labels: LabelService) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('viewList')
    const { limit, cursor } = await request.validateUsing(listLabelsValidator)
    const page = await this.labels.list(principal, { limit, cursor })
    return inertia.render('operator/labels/index', {
      labels: LabelTransformer.transform(page.data),
      next_cursor: page.nextCursor,
    })
  }

  async create({ inertia, bouncer }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('create')
    return inertia.render('operator/labels/form', { label: null })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('create')
    const input = await request.validateUsing(createLabelValidator)
    const label = await this.labels.create(principal, input)
    session.flash('notice', { severity: 'success', summary: `Label ${label.name} created` })
    return response.redirect().toRoute('operator.catalogue.labels.index')
  }

  async edit({ params, inertia, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('update')
    return inertia.render('operator/labels/form', { label: LabelTransformer.transform(label) })
  }

  /** Name, branding and the label's own host: PATCH /v1/labels/{id}'s validator and service method. */
  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('update')
    const input = await request.validateUsing(updateLabelValidator)
    await this.labels.update(principal, label, input)
    session.flash('notice', { severity: 'success', summary: `Label ${label.name} saved` })
    return response.redirect().toRoute('operator.catalogue.labels.index')
  }
}
