import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Form from '#models/form'
import FormConsentVersion from '#models/form_consent_version'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { transaction } from '#services/sql/transaction'
import { isUniqueViolation } from '#services/sql/unique_violation'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { type FormField, leadPathOf } from '#services/forms/form_fields'
import { funnelOf } from '#services/forms/form_counters'
import { effectiveRules } from '#services/quality/effective_rules'
import intakeConfig from '#config/intake'

export type CreateFormInput = {
  publisher_id?: string
  slug: string
  title: string
  fields: FormField[]
  consent_text: string
  thank_you_url?: string | null
  embed_origins?: string[]
  active?: boolean
}
export type UpdateFormInput = Partial<Omit<CreateFormInput, 'publisher_id'>>
export type FormFilters = PageRequest & { publisher_id?: string }

const NOBODY = '00000000-0000-0000-0000-000000000000'

/**
 * Hosted forms as their publisher (or the operator for it) defines them.
 * The consent wording is versioned: a change appends a version and points
 * the form at it, so every lead keeps the exact text it was given under.
 */
@inject()
export default class FormService {
  constructor(protected accessLog: AccessLogService) {}

  visibleTo(principal: Principal) {
    const query = Form.query().preload('consentVersion')
    if (!principal.isOperator) {
      query.where(
        'publisher_id',
        (principal.kind === 'publisher' && principal.publisherId) || NOBODY
      )
    }
    return query
  }

  list(principal: Principal, filters: FormFilters) {
    const query = this.visibleTo(principal)
    if (filters.publisher_id) query.where('publisher_id', filters.publisher_id)
    return paginate(query, filters)
  }

  async findVisible(principal: Principal, id: string) {
    const form = await this.visibleTo(principal).where('id', id).first()
    if (!form) throw ApiProblem.notFound('form')
    return form
  }

  async create(principal: Principal, input: CreateFormInput) {
    const publisherId = await this.publisherFor(principal, input.publisher_id)
    return this.saving(input.slug, () =>
      transaction(async (trx) => {
        const form = await Form.create(
          {
            publisherId,
            slug: input.slug,
            title: input.title,
            fields: input.fields,
            thankYouUrl: input.thank_you_url ?? null,
            embedOrigins: input.embed_origins ?? [],
            active: input.active ?? true,
          },
          { client: trx }
        )
        await this.appendConsentVersion(trx, form, input.consent_text)
        await this.accessLog.record(
          principal.actor,
          'form.created',
          { type: 'form', id: form.id, publisherId },
          { trx }
        )
        return form
      })
    )
  }

  async update(principal: Principal, form: Form, input: UpdateFormInput) {
    const fields = Object.keys(input).filter(
      (field) => input[field as keyof UpdateFormInput] !== undefined
    )
    if (fields.length === 0) return form
    return this.saving(input.slug ?? form.slug, () =>
      transaction(async (trx) => {
        form.useTransaction(trx)
        form.merge({
          ...(input.slug !== undefined ? { slug: input.slug } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.fields !== undefined ? { fields: input.fields } : {}),
          ...(input.thank_you_url !== undefined ? { thankYouUrl: input.thank_you_url } : {}),
          ...(input.embed_origins !== undefined ? { embedOrigins: input.embed_origins } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
        })
        await form.save()
        const wording = input.consent_text
        if (wording !== undefined && wording !== form.consentVersion?.text) {
          await this.appendConsentVersion(trx, form, wording)
        }
        await this.accessLog.record(
          principal.actor,
          'form.updated',
          { type: 'form', id: form.id, publisherId: form.publisherId },
          { details: { fields }, trx }
        )
        return form
      })
    )
  }

  /**
   * Choosing forms as a delivery method sets one up: a publisher without a
   * form gets the starter form (inactive until it publishes it).
   */
  async ensureStarterForm(principal: Principal, publisher: Publisher) {
    const existing = await Form.query().where('publisher_id', publisher.id).first()
    if (existing) return null
    const starter = starterForm(publisher)
    try {
      return await this.create(principal, starter)
    } catch (error) {
      if (!(error instanceof ApiProblem && error.code === 'slug_taken')) throw error
      return this.create(principal, {
        ...starter,
        slug: `${starter.slug.slice(0, 55)}-${Date.now() % 100000}`,
      })
    }
  }

  /**
   * What a form's page shows beside it: every consent wording it has shown
   * (newest first), its funnel over 30 days, and the fields the publisher's
   * quality rules require that the form does not ask for (every lead from it
   * would be rejected for them).
   */
  async detailsOf(form: Form) {
    const publisher = await Publisher.findOrFail(form.publisherId)
    const asked = new Set(form.fields.map((field) => leadPathOf(field.name)))
    const required = effectiveRules(
      publisher.qualityRules ?? {},
      intakeConfig.consentMaxAgeDays
    ).requiredFields
    return {
      consentVersions: await FormConsentVersion.query()
        .where('form_id', form.id)
        .orderBy('version', 'desc'),
      funnel: await funnelOf(form.id),
      missingRequiredFields: required.filter((path) => !asked.has(path)),
    }
  }

  private async appendConsentVersion(trx: TransactionClientContract, form: Form, text: string) {
    const previous = await FormConsentVersion.query({ client: trx })
      .where('form_id', form.id)
      .max('version as latest')
      .first()
    const version = await FormConsentVersion.create(
      { formId: form.id, version: Number(previous?.$extras.latest ?? 0) + 1, text },
      { client: trx }
    )
    form.consentVersionId = version.id
    await form.save()
    form.$setRelated('consentVersion', version)
  }

  /** A publisher makes forms for itself; the operator names the publisher. */
  private async publisherFor(principal: Principal, publisherId: string | undefined) {
    if (principal.kind === 'publisher') {
      if (publisherId !== undefined && publisherId !== principal.publisherId) {
        throw ApiProblem.forbidden(
          'publisher_mismatch',
          'A publisher makes forms for itself only: leave "publisher_id" out.',
          { field: 'publisher_id' }
        )
      }
      return principal.publisherId!
    }
    if (!publisherId) {
      throw ApiProblem.unprocessable([
        { field: 'publisher_id', code: 'required', message: 'Name the publisher the form is for.' },
      ])
    }
    const publisher = await Publisher.find(publisherId)
    if (!publisher) {
      throw ApiProblem.unprocessable([
        { field: 'publisher_id', code: 'exists', message: 'No publisher with this id.' },
      ])
    }
    return publisher.id
  }

  private async saving<T>(slug: string, save: () => Promise<T>) {
    try {
      return await save()
    } catch (error) {
      if (isUniqueViolation(error, 'forms_slug_unique')) {
        throw ApiProblem.conflict('slug_taken', `A form with slug "${slug}" exists already.`, {
          field: 'slug',
        })
      }
      throw error
    }
  }
}

/**
 * The first form a publisher gets when it chooses forms as a delivery
 * method: the contact fields most buyers want and a consent wording in the
 * label's name, inactive until the publisher has read and published it.
 */
export function starterForm(publisher: Publisher): CreateFormInput {
  const brand = publisher.label?.name ?? publisher.name
  return {
    publisher_id: publisher.id,
    slug: `${publisher.slug}-form`.slice(0, 64),
    title: `Contact ${brand}`,
    fields: [
      { name: 'name', label: 'Your name', required: true },
      { name: 'email', label: 'E-mail address', required: true },
      { name: 'phone', label: 'Phone number', required: true },
      { name: 'postal_code', label: 'Postal code', required: true },
    ],
    consent_text: `I agree that ${brand} and its partners may contact me by e-mail and phone about my request. I can withdraw this consent at any time.`,
    active: false,
  }
}
