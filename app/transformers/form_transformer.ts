import type Form from '#models/form'
import type FormConsentVersion from '#models/form_consent_version'
import { formUrl } from '#services/forms/hosted_form_service'
import { embedSnippet } from '#services/forms/form_embedding'

export function consentVersionToJson(version: FormConsentVersion) {
  return {
    id: version.id,
    version: version.version,
    text: version.text,
    created_at: version.createdAt.toUTC().toISO(),
  }
}

export function formToJson(form: Form) {
  return {
    id: form.id,
    publisher_id: form.publisherId,
    slug: form.slug,
    title: form.title,
    fields: form.fields,
    consent_text: form.consentVersion?.text ?? null,
    consent_version: form.consentVersion ? consentVersionToJson(form.consentVersion) : null,
    thank_you_url: form.thankYouUrl,
    embed_origins: form.embedOrigins,
    active: form.active,
    url: formUrl(form.slug),
    embed_snippet: embedSnippet(form),
    created_at: form.createdAt.toUTC().toISO(),
    updated_at: form.updatedAt.toUTC().toISO(),
  }
}
