import encryption from '@adonisjs/core/services/encryption'
import formsConfig from '#config/forms'

/**
 * What the served page remembers for its submission, sealed so the browser
 * can carry it but not change it: when the page was served (the minimum
 * fill time), the consent wording shown, and where the consumer came from.
 */
export type FormToken = {
  form_id: string
  version_id: string
  served_at: number
  landing_page: string | null
  source: string | null
  campaign: string | null
}

const purposeOf = (formId: string) => `form:${formId}`

export function sealFormToken(token: FormToken) {
  return encryption.encrypt(token, {
    purpose: purposeOf(token.form_id),
    expiresIn: formsConfig.tokenTtl,
  })
}

/** The token of a page of this form, or null when it is forged, expired or another form's. */
export function openFormToken(formId: string, sealed: unknown) {
  if (typeof sealed !== 'string' || sealed.length > 4000) return null
  const token = encryption.decrypt<FormToken>(sealed, purposeOf(formId))
  return token && token.form_id === formId ? token : null
}
