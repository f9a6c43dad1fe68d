import { BaseTransformer } from '@adonisjs/core/transformers'
import type Form from '#models/form'
import { formUrl } from '#services/forms/hosted_form_service'
import { embedSnippet } from '#services/forms/form_embedding'
import { isoTime } from '#services/sql/timestamps'
import FormConsentVersionTransformer from '#transformers/form_consent_version_transformer'

export default class FormTransformer extends BaseTransformer<Form> {
  /** `publisherNames`: the operator's list names each form's publisher (its owner directory). */
  constructor(
    form: Form,
    protected publisherNames?: ReadonlyMap<string, string>
  ) {
    super(form)
  }

  toObject() {
    const form = this.resource
    return {
      id: form.id,
      publisher_id: form.publisherId,
      slug: form.slug,
      title: form.title,
      fields: form.fields,
      consent_text: form.consentVersion?.text ?? null,
      consent_version: form.consentVersion
        ? new FormConsentVersionTransformer(form.consentVersion).toObject()
        : null,
      thank_you_url: form.thankYouUrl,
      embed_origins: form.embedOrigins,
      active: form.active,
      url: formUrl(form.slug),
      embed_snippet: embedSnippet(form),
      created_at: isoTime(form.createdAt),
      updated_at: isoTime(form.updatedAt),
    }
  }

  /** A list of forms in the portal: each with its publisher's name (null for a publisher's own). */
  withPublisherName() {
    return {
      ...this.toObject(),
      publisher_name: this.publisherNames?.get(this.resource.publisherId) ?? null,
    }
  }
}
