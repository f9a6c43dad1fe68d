import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import { pageToJson } from '#services/sql/cursor_pagination'
import { createLabelValidator, listLabelsValidator, updateLabelValidator } from '#validators/label'
import { labelToJson } from '#transformers/label_transformer'

@inject()
export default class LabelsController {
  constructor(protected labels: LabelService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('create')
    const input = await request.validateUsing(createLabelValidator)
    const label = await this.labels.create(principal, input)
    return response.created(labelToJson(label))
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('viewList')
    const { limit, cursor } = await request.validateUsing(listLabelsValidator)
    return pageToJson(await this.labels.list(principal, { limit, cursor }), labelToJson)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('view')
    return labelToJson(label)
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('update')
    const input = await request.validateUsing(updateLabelValidator)
    return labelToJson(await this.labels.update(principal, label, input))
  }
}
