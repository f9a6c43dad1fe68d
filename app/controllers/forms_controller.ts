import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import FormService from '#services/forms/form_service'
import { createFormValidator, listFormsValidator, updateFormValidator } from '#validators/form'
import FormTransformer from '#transformers/form_transformer'
import FormConsentVersionTransformer from '#transformers/form_consent_version_transformer'
import FormFunnelTransformer from '#transformers/form_funnel_transformer'

@inject()
export default class FormsController {
  constructor(protected forms: FormService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('create')
    const input = await request.validateUsing(createFormValidator)
    const form = await this.forms.create(principal, input)
    return response.created(await serialize(FormTransformer.transform(form)))
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('viewList')
    const filters = await request.validateUsing(listFormsValidator)
    const page = await this.forms.list(principal, filters)
    return serializePage(FormTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('view')
    const details = await this.forms.detailsOf(form)
    return {
      ...(await serialize(FormTransformer.transform(form))),
      consent_versions: await serialize(
        FormConsentVersionTransformer.transform(details.consentVersions)
      ),
      funnel: await serialize(FormFunnelTransformer.transform(details.funnel)),
      missing_required_fields: details.missingRequiredFields,
    }
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('update')
    const input = await request.validateUsing(updateFormValidator)
    return serialize(FormTransformer.transform(await this.forms.update(principal, form, input)))
  }
}
