import { BaseTransformer } from '@adonisjs/core/transformers'
import type FormConsentVersion from '#models/form_consent_version'
import { isoTime } from '#services/sql/timestamps'

/** One version of a form's consent wording; a change makes a new one, the old ones stay. */
export default class FormConsentVersionTransformer extends BaseTransformer<FormConsentVersion> {
  toObject() {
    const version = this.resource
    return {
      id: version.id,
      version: version.version,
      text: version.text,
      created_at: isoTime(version.createdAt),
    }
  }
}
