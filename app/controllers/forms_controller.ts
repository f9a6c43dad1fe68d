import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import FormService from '#services/forms/form_service'
import { pageToJson } from '#services/sql/cursor_pagination'
import { createFormValidator, listFormsValidator, updateFormValidator } from '#validators/form'
import { consentVersionToJson, formToJson } from '#transformers/form_transformer'

@inject()
export default class FormsController {
  constructor(protected forms: FormService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('create')
    const input = await request.validateUsing(createFormValidator)
    return response.created(formToJson(await this.forms.create(principal, input)))
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('viewList')
    const filters = await request.validateUsing(listFormsValidator)
    return pageToJson(await this.forms.list(principal, filters), formToJson)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('view')
    const details = await this.forms.detailsOf(form)
    return {
      ...formToJson(form),
      consent_versions: details.consentVersions.map(consentVersionToJson),
      funnel: details.funnel,
      missing_required_fields: details.missingRequiredFields,
    }
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('update')
    const input = await request.validateUsing(updateFormValidator)
    return formToJson(await this.forms.update(principal, form, input))
  }
}
