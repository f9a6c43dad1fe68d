import { inject } from '@adonisjs/core'
import { errors as limiterErrors } from '@adonisjs/limiter'
import { appUrl } from '#config/app'
import formsConfig from '#config/forms'
import Form from '#models/form'
import FormConsentVersion from '#models/form_consent_version'
import type Label from '#models/label'
import type Publisher from '#models/publisher'
import Principal from '#auth/principal'
import IntakeService from '#services/intake/intake_service'
import { deliveryMethodEnabled } from '#services/intake/delivery_methods'
import { evaluateLead, publisherContext } from '#services/quality/evaluate_lead'
import type { LeadInput } from '#services/quality/types'
import { withLimiter } from '#services/access/limiter_store'
import { countFunnelStep } from '#services/forms/form_counters'
import {
  type FieldProblem,
  cleanText,
  fixableProblems,
  readFields,
} from '#services/forms/form_fields'
import { type FormToken, openFormToken, sealFormToken } from '#services/forms/form_token'

export type HostedForm = {
  form: Form
  publisher: Publisher
  label: Label | null
  version: FormConsentVersion
  /** A form takes in its publisher's world: live once the operator set it live, sandbox before. */
  environment: Principal['environment']
}

/** Where the consumer is: the page address's query and the page it came from. */
export type Visit = { query: Record<string, unknown>; referer: string | null }

export type SubmitOutcome =
  | { kind: 'stored'; thankYouUrl: string | null }
  /** A bot's submission: it is thanked like anyone, and nothing is kept. */
  | { kind: 'blocked' }
  | { kind: 'invalid'; problems: Record<string, FieldProblem>; token: string }
  /** Sent too fast or with a stale page: the consumer gets the form back to send again. */
  | { kind: 'resend'; reason: 'too_fast' | 'expired'; token: string }
  | { kind: 'rate_limited'; retryAfter: number }

/**
 * The consumer's side of a hosted form: serving the page and taking a
 * submission into the one intake pipeline (channel `form`, actor
 * `form:<id>`, consent method `form_submit`). The consent wording, its
 * timestamp and the consumer's address come from the server, never from
 * what the browser sends.
 */
@inject()
export default class HostedFormService {
  constructor(protected intake: IntakeService) {}

  /** The form behind a public slug, and whether it takes submissions now; null when there is none. */
  async find(slug: string) {
    const form = await Form.query()
      .where('slug', slug)
      .preload('consentVersion')
      .preload('publisher', (publisher) => publisher.preload('label'))
      .first()
    if (!form || !form.consentVersion) return null
    const { publisher } = form
    const hosted: HostedForm = {
      form,
      publisher,
      label: publisher.label ?? null,
      version: form.consentVersion,
      environment: publisher.status === 'live' ? 'live' : 'sandbox',
    }
    const open =
      form.active && publisher.status !== 'paused' && deliveryMethodEnabled(publisher, 'form')
    return { hosted, open }
  }

  /**
   * Serves the page: counts the view (not the portal's preview, `?preview=1`, so the
   * publisher looking at its own form does not count as a consumer) and seals what the
   * submission will need.
   */
  async serve(hosted: HostedForm, visit: Visit) {
    if (visit.query.preview !== '1') await countFunnelStep(hosted.form.id, 'views')
    return this.tokenFor(hosted, {
      landing_page: this.landingPage(hosted, visit),
      source: cleanText(visit.query.utm_source, 200),
      campaign: cleanText(visit.query.utm_campaign, 200),
    })
  }

  /** The page's script reports the first keystroke; a page without script counts its start on submit. */
  async start(hosted: HostedForm, sealed: unknown) {
    if (!openFormToken(hosted.form.id, sealed)) return false
    await countFunnelStep(hosted.form.id, 'starts')
    return true
  }

  async submit(
    hosted: HostedForm,
    body: Record<string, unknown>,
    ip: string
  ): Promise<SubmitOutcome> {
    const { form, publisher } = hosted
    try {
      await withLimiter(formsConfig.rateLimit, (limiter) => limiter.consume(`form:${ip}`))
    } catch (error) {
      if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) {
        return { kind: 'rate_limited', retryAfter: error.response.availableIn }
      }
      throw error
    }
    const token = openFormToken(form.id, body.form_token)
    if (!token) {
      return { kind: 'resend', reason: 'expired', token: this.tokenFor(hosted, emptyVisit) }
    }
    if (cleanText(body.website)) {
      await countFunnelStep(form.id, 'blocked')
      return { kind: 'blocked' }
    }
    const renewed = this.tokenFor(hosted, token)
    if (Date.now() - token.served_at < formsConfig.minFillMs) {
      await countFunnelStep(form.id, 'blocked')
      return { kind: 'resend', reason: 'too_fast', token: renewed }
    }

    const now = new Date()
    const { contact, attributes, problems } = readFields(form.fields, body)
    const lead: LeadInput = {
      publisher: publisher.slug,
      contact,
      attributes,
      provenance: {
        source: token.source,
        campaign: token.campaign,
        landing_page: token.landing_page,
      },
      consent: {
        given: body.consent === 'yes',
        text: await this.wordingServed(hosted, token),
        version_id: token.version_id,
        timestamp: now,
        ip,
      },
    }
    const verdict = evaluateLead(lead, {
      ...publisherContext(publisher, publisher.qualityRules ?? {}, now),
      duplicate: false,
    })
    const fixable = { ...fixableProblems(form.fields, verdict.reasons), ...problems }
    if (Object.keys(fixable).length > 0)
      return { kind: 'invalid', problems: fixable, token: renewed }

    const principal = new Principal(
      'publisher',
      new Set(['submit']),
      hosted.environment,
      `form:${form.id}`,
      publisher.id
    )
    await this.intake.submit(principal, lead, { channel: 'form', consentMethod: 'form_submit' })
    if (body.started !== 'yes') await countFunnelStep(form.id, 'starts')
    await countFunnelStep(form.id, 'submissions')
    return { kind: 'stored', thankYouUrl: form.thankYouUrl }
  }

  /** The wording of the page that was served, even if the form changed since; never the browser's. */
  private async wordingServed(hosted: HostedForm, token: FormToken) {
    if (token.version_id === hosted.version.id) return hosted.version.text
    const served = await FormConsentVersion.query()
      .where('id', token.version_id)
      .where('form_id', hosted.form.id)
      .firstOrFail()
    return served.text
  }

  private tokenFor(
    hosted: HostedForm,
    from: Omit<FormToken, 'form_id' | 'version_id' | 'served_at'>
  ) {
    return sealFormToken({
      form_id: hosted.form.id,
      version_id: hosted.version.id,
      served_at: Date.now(),
      landing_page: from.landing_page,
      source: from.source,
      campaign: from.campaign,
    })
  }

  /**
   * The embedding page, as the snippet passes it (`page`) or the browser's
   * Referer names it, when its origin may embed the form; else the form's own address.
   */
  private landingPage(hosted: HostedForm, visit: Visit) {
    for (const candidate of [cleanText(visit.query.page, 2000), visit.referer]) {
      const url = parseUrl(candidate)
      if (url && hosted.form.embedOrigins.includes(url.origin)) return url.href
    }
    return formUrl(hosted.form.slug)
  }
}

const emptyVisit = { landing_page: null, source: null, campaign: null }

function parseUrl(candidate: string | null) {
  if (!candidate) return null
  try {
    const url = new URL(candidate)
    return ['http:', 'https:'].includes(url.protocol) ? url : null
  } catch {
    return null
  }
}

/** The public address of a form's page. */
export function formUrl(slug: string) {
  return new URL(`/f/${encodeURIComponent(slug)}`, appUrl).href
}
