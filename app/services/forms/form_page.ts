import i18nManager from '@adonisjs/i18n/services/main'
import type Label from '#models/label'
import { brandLook, brandOf } from '#services/catalogue/branding_service'
import { type FieldProblem, inputOf, isContactField } from '#services/forms/form_fields'
import type { HostedForm } from '#services/forms/hosted_form_service'

/** What the consumer sent, shown again beside what to fix. */
export type PageState = {
  token: string
  values?: Record<string, unknown>
  problems?: Record<string, FieldProblem>
  notice?: 'too_fast' | 'expired'
}

export type MessageKind = 'thanks' | 'closed' | 'not_found' | 'rate_limited'

/** The label's language when its pages speak it, else English. */
export function translatorFor(label: Label | null) {
  const wanted = label?.locale ?? 'en'
  const locale = i18nManager.supportedLocales().includes(wanted) ? wanted : 'en'
  const i18n = i18nManager.locale(locale)
  return {
    locale,
    t: (key: string, data?: Record<string, unknown>) => i18n.t(`forms.${key}`, data),
  }
}

function chrome(label: Label | null) {
  const brand = brandOf(label)
  return { brandName: brand.name, ...brandLook(brand), ...translatorFor(label) }
}

function errorMessage(name: string, problem: FieldProblem, t: (key: string) => string) {
  if (name === 'consent') return t('errors.consent')
  if (problem === 'invalid' && isContactField(name)) return t(`errors.invalid_${name}`)
  return t(`errors.${problem}`)
}

/**
 * The attributes that tie an input to its error. Written raw into the tag: the id is built
 * from a field name the validator keeps to [a-z0-9_].
 */
const invalidAttributes = (id: string) => `aria-invalid="true" aria-describedby="${id}-error"`

const valueOf = (values: Record<string, unknown>, name: string) =>
  typeof values[name] === 'string' ? (values[name] as string) : ''

/**
 * The hosted page's view: every field with its label, whether it is
 * required, its input and autocomplete, the value sent and its error; the
 * consent wording served; the notice and the error summary that lead a
 * consumer to what to fix. Never a lead id or an internal reason.
 */
export function formPage(hosted: HostedForm, state: PageState) {
  const { t, locale, ...look } = chrome(hosted.label)
  const values = state.values ?? {}
  const problems = state.problems ?? {}
  const fields = hosted.form.fields.map((field) => {
    const problem = problems[field.name]
    const input = inputOf(field)
    return {
      ...field,
      ...input,
      id: `field-${field.name}`,
      marker: t(field.required ? 'required' : 'optional'),
      value: valueOf(values, field.name),
      checked: values[field.name] === 'yes',
      options: 'options' in input ? input.options : [],
      error: problem ? errorMessage(field.name, problem, t) : null,
      invalid: problem ? invalidAttributes(`field-${field.name}`) : '',
    }
  })
  const consentError = problems.consent ? errorMessage('consent', problems.consent, t) : null
  const errors = [
    ...fields
      .filter((field) => field.error)
      .map((field) => ({ id: field.id, message: field.error })),
    ...(consentError ? [{ id: 'field-consent', message: consentError }] : []),
  ]
  return {
    ...look,
    lang: locale,
    title: hosted.form.title,
    action: `/f/${encodeURIComponent(hosted.form.slug)}`,
    token: state.token,
    notice: state.notice ? t(state.notice) : null,
    errorSummary: errors.length ? t('error_summary', { count: errors.length }) : null,
    errors,
    fields,
    consent: {
      text: hosted.version.text,
      checked: values.consent === 'yes',
      error: consentError,
      invalid: consentError ? invalidAttributes('field-consent') : '',
    },
    text: {
      choose: t('choose'),
      submit: t('submit'),
      consentHeading: t('consent_heading'),
      honeypot: t('honeypot'),
    },
  }
}

/** A page that only says something: thanks, closed, not found, wait. */
export function messagePage(
  label: Label | null,
  kind: MessageKind,
  data?: Record<string, unknown>
) {
  const { t, locale, ...look } = chrome(label)
  return { ...look, lang: locale, heading: t(`${kind}_title`), message: t(kind, data) }
}
