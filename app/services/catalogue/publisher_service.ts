import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import { uuidv7 } from 'uuidv7'
import Label from '#models/label'
import Publisher, { type DeliveryMethod, type PublisherStatus } from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import TenancyService from '#services/platform/tenancy_service'
import InvitationService from '#services/access/invitation_service'
import FormService from '#services/forms/form_service'
import { type PageRequest, paginate, paginateSorted } from '#services/sql/cursor_pagination'
import { containing } from '#services/sql/like_pattern'
import { transaction } from '#services/sql/transaction'
import { isUniqueViolation } from '#services/sql/unique_violation'
import {
  lockPublisher,
  rulesConfirmed,
  rulesNotConfirmed,
  sandboxLeadsColumn,
} from '#services/catalogue/onboarding_service'

export type CreatePublisherInput = {
  slug: string
  name: string
  contact_email: string
  label?: string
  country?: string
}

export type UpdatePublisherInput = {
  name?: string
  status?: Exclude<PublisherStatus, 'invited'>
  delivery_methods?: DeliveryMethod[]
}

export type PublisherFilters = PageRequest & {
  status?: PublisherStatus
  label?: string
  /** Part of the name or the slug, any case. */
  search?: string
  /** Newest first by default; by name, A to Z unless `order` says otherwise. */
  sort?: 'created' | 'name'
}

const NO_ID = '00000000-0000-0000-0000-000000000000'

@inject()
export default class PublisherService {
  constructor(
    protected tenancy: TenancyService,
    protected invitations: InvitationService,
    protected accessLog: AccessLogService,
    protected forms: FormService
  ) {}

  /**
   * The publisher row, its schema and its tenant tables are created in one
   * transaction: a publisher never exists without its world, nor the reverse.
   * The invitation is mailed after the commit.
   */
  async create(principal: Principal, input: CreatePublisherInput) {
    if (await Publisher.findBy('slug', input.slug)) throw slugTaken(input.slug)
    const label = input.label ? await Label.findBy('slug', input.label) : null
    if (input.label && !label) {
      throw ApiProblem.unprocessable([
        { field: 'label', code: 'exists', message: `No label with slug "${input.label}".` },
      ])
    }

    const id = uuidv7()
    let created
    try {
      created = await transaction(async (trx) => {
        const publisher = await Publisher.create(
          {
            id,
            slug: input.slug,
            name: input.name,
            contactEmail: input.contact_email,
            labelId: label?.id ?? null,
            country: input.country ?? 'NL',
            status: 'invited',
            deliveryMethods: [],
            schemaName: TenancyService.schemaNameFor(id),
            qualityRules: {},
            qualityRulesVersion: 0,
            rulesConfirmedVersion: null,
            rulesConfirmedAt: null,
            goLiveRequestedAt: null,
            wentLiveAt: null,
          },
          { client: trx }
        )
        await this.tenancy.provision(trx, publisher)
        const invitation = await this.invitations.create(trx, publisher)
        await this.accessLog.record(
          principal.actor,
          'publisher.invited',
          { type: 'publisher', id: publisher.id, publisherId: publisher.id },
          { trx }
        )
        return { publisher, invitationUrl: invitation.url }
      })
    } catch (error) {
      // Two requests racing for one slug: the loser gets the same 409 as a late caller.
      if (isUniqueViolation(error, 'publishers_slug_unique')) throw slugTaken(input.slug)
      throw error
    }
    created.publisher.$setRelated('label', label as Label)
    await this.invitations.send(created.publisher, created.invitationUrl)
    return created.publisher
  }

  /**
   * The operator sees every publisher, a publisher only itself, anyone else
   * none. Each comes with its sandbox lead count (`$extras.sandbox_leads`),
   * which its onboarding step reads.
   */
  visibleTo(principal: Principal) {
    const query = Publisher.query().select('publishers.*', sandboxLeadsColumn()).preload('label')
    if (!principal.isOperator) {
      query.where('id', (principal.kind === 'publisher' && principal.publisherId) || NO_ID)
    }
    return query
  }

  async list(principal: Principal, filters: PublisherFilters) {
    const query = this.visibleTo(principal)
    if (filters.status) query.where('status', filters.status)
    if (filters.label) query.whereHas('label', (label) => label.where('slug', filters.label!))
    if (filters.search) {
      const pattern = containing(filters.search)
      query.where((found) => found.whereILike('name', pattern).orWhereILike('slug', pattern))
    }
    if (filters.sort === 'name') {
      const order = filters.order ?? 'asc'
      return paginateSorted(query, { ...filters, order }, { table: 'publishers', column: 'name' })
    }
    return paginate(query, filters)
  }

  async findVisible(principal: Principal, id: string) {
    const publisher = await this.visibleTo(principal).where('id', id).first()
    if (!publisher) throw ApiProblem.notFound('publisher')
    return publisher
  }

  /**
   * Going live is gated: a publisher that never was live must have
   * confirmed its current quality rules (409 `rules_not_confirmed`); one
   * that was live before and is paused may resume. Choosing forms as a
   * delivery method sets up a first form when it has none.
   */
  async update(principal: Principal, publisher: Publisher, input: UpdatePublisherInput) {
    const fields = Object.keys(input)
    if (fields.length === 0) return publisher
    await transaction(async (trx) => {
      await lockPublisher(trx, publisher)
      const goingLive = input.status === 'live' && publisher.status !== 'live'
      if (goingLive && !publisher.wentLiveAt && !rulesConfirmed(publisher)) {
        throw rulesNotConfirmed(publisher)
      }
      // A live row without the mark was set live outside this service (a seed, an import): it has been live.
      if (goingLive || publisher.status === 'live') publisher.wentLiveAt ??= DateTime.utc()
      publisher.merge({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.delivery_methods !== undefined
          ? { deliveryMethods: [...new Set(input.delivery_methods)] }
          : {}),
      })
      await publisher.save()
      await this.accessLog.record(
        principal.actor,
        'publisher.updated',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        { details: { fields, ...(input.status ? { status: input.status } : {}) }, trx }
      )
    })
    if (input.delivery_methods?.includes('form')) {
      await this.forms.ensureStarterForm(principal, publisher)
    }
    return publisher
  }
}

function slugTaken(slug: string) {
  return ApiProblem.conflict('slug_taken', `A publisher with slug "${slug}" already exists.`, {
    field: 'slug',
  })
}
