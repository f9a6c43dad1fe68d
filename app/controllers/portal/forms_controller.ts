import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import type Form from '#models/form'
import FormService from '#services/forms/form_service'
import HostedFormService from '#services/forms/hosted_form_service'
import { HEIGHT_MESSAGE } from '#services/forms/form_embedding'
import { ATTRIBUTE_TYPES, CONTACT_FIELDS, RESERVED_FIELD_NAMES } from '#services/forms/form_fields'
import { ownerDirectory, ownerNameOf } from '#services/catalogue/owner_directory'
import { createFormValidator, listFormsValidator, updateFormValidator } from '#validators/form'
import FormTransformer from '#transformers/form_transformer'
import FormConsentVersionTransformer from '#transformers/form_consent_version_transformer'
import FormFunnelTransformer from '#transformers/form_funnel_transformer'

/** The words a form's field editor speaks, from the service's own lists. */
const VOCABULARY = {
  contact_fields: [...CONTACT_FIELDS],
  attribute_types: [...ATTRIBUTE_TYPES],
  reserved_names: [...RESERVED_FIELD_NAMES],
}

/**
 * `/operator/forms` and `/publisher/forms`: the portal's face of /v1/forms.
 * One set of pages for both (the `audience` prop says whose portal); the same
 * validators, FormPolicy, FormService and JSON as the API, so another
 * publisher's form is not found here either.
 */
@inject()
export default class FormsController {
  constructor(
    protected forms: FormService,
    protected hostedForms: HostedFormService
  ) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('viewList')
    // A hand-edited address (a junk publisher id) falls back to the first page of every form.
    const [invalid, filters] = await listFormsValidator.tryValidate(request.qs())
    const [page, directory] = await Promise.all([
      this.forms.list(principal, invalid ? {} : filters),
      ownerDirectory(principal),
    ])
    const names = new Map(directory?.publishers.map((publisher) => [publisher.id, publisher.name]))
    return inertia.render('forms/index', {
      audience: audienceOf(principal),
      forms: FormTransformer.transform(page.data, names).useVariant('withPublisherName'),
      next_cursor: page.nextCursor,
      publishers: publisherChoices(directory),
    })
  }

  async create({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('create')
    const publishers = publisherChoices(await ownerDirectory(principal))
    // A form started from the list filtered by a publisher comes with that publisher chosen.
    const wanted = request.qs().publisher_id
    return inertia.render('forms/edit', {
      audience: audienceOf(principal),
      form: null,
      publisher_name: null,
      publisher_id: publishers.some((choice) => choice.value === wanted)
        ? (wanted as string)
        : null,
      publishers,
      vocabulary: VOCABULARY,
    })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('FormPolicy').authorize('create')
    const input = await request.validateUsing(createFormValidator)
    const form = await this.forms.create(principal, input)
    session.flash('notice', { severity: 'success', summary: `Form "${form.title}" created` })
    return response.redirect(formPath(principal, form))
  }

  /** A form's page: its address and snippet, a preview, its funnel and consent versions. */
  async show({ params, inertia, principal, bouncer }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('view')
    const [details, hosted, publisherName] = await Promise.all([
      this.forms.detailsOf(form),
      this.hostedForms.find(form.slug),
      ownerNameOf(principal, { publisherId: form.publisherId, buyerId: null }),
    ])
    return inertia.render('forms/show', {
      audience: audienceOf(principal),
      form: FormTransformer.transform(form),
      publisher_name: publisherName,
      consent_versions: FormConsentVersionTransformer.transform(details.consentVersions),
      funnel: FormFunnelTransformer.transform(details.funnel),
      missing_required_fields: details.missingRequiredFields,
      // Whether the page takes submissions now, and as which leads (sandbox until the publisher is live).
      page_open: hosted?.open ?? false,
      environment: hosted?.hosted.environment ?? 'sandbox',
      height_message: HEIGHT_MESSAGE,
    })
  }

  async edit({ params, inertia, principal, bouncer }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('update')
    return inertia.render('forms/edit', {
      audience: audienceOf(principal),
      form: FormTransformer.transform(form),
      publisher_name: await ownerNameOf(principal, {
        publisherId: form.publisherId,
        buyerId: null,
      }),
      publisher_id: form.publisherId,
      publishers: [],
      vocabulary: VOCABULARY,
    })
  }

  /** PATCH /v1/forms/{id}'s validator and service method; a new wording is a new consent version. */
  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const form = await this.forms.findVisible(principal, params.id)
    await bouncer.with('FormPolicy').authorize('update')
    const input = await request.validateUsing(updateFormValidator)
    const before = form.consentVersion?.version
    await this.forms.update(principal, form, input)
    const version = form.consentVersion?.version
    const summary =
      version !== before
        ? `Form "${form.title}" saved: its consent wording is version ${version} now`
        : `Form "${form.title}" saved`
    session.flash('notice', { severity: 'success', summary })
    return response.redirect(formPath(principal, form))
  }
}

function audienceOf(principal: Principal) {
  return principal.isOperator ? ('operator' as const) : ('publisher' as const)
}

function formPath(principal: Principal, form: Form) {
  return `/${audienceOf(principal)}/forms/${form.id}`
}

/** The operator's publishers as a picker's options; nobody else chooses one. */
function publisherChoices(directory: Awaited<ReturnType<typeof ownerDirectory>>) {
  return (directory?.publishers ?? []).map((publisher) => ({
    value: publisher.id,
    label: publisher.name,
  }))
}
