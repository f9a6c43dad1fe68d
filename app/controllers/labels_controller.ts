import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import { createLabelValidator, listLabelsValidator, updateLabelValidator } from '#validators/label'
import LabelTransformer from '#transformers/label_transformer'

@inject()
export default class LabelsController {
  constructor(protected labels: LabelService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('create')
    const input = await request.validateUsing(createLabelValidator)
    const label = await this.labels.create(principal, input)
    return response.created(await serialize(LabelTransformer.transform(label)))
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('LabelPolicy').authorize('viewList')
    const { limit, cursor } = await request.validateUsing(listLabelsValidator)
    const page = await this.labels.list(principal, { limit, cursor })
    return serializePage(LabelTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('view')
    return serialize(LabelTransformer.transform(label))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('LabelPolicy').authorize('update')
    const input = await request.validateUsing(updateLabelValidator)
    return serialize(LabelTransformer.transform(await this.labels.update(principal, label, input)))
  }
}
