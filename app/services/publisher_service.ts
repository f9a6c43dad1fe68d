import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { uuidv7 } from 'uuidv7'
import Label from '#models/label'
import Publisher, { type DeliveryMethod, type PublisherStatus } from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access_log_service'
import TenancyService from '#services/tenancy_service'
import InvitationService from '#services/invitation_service'

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

@inject()
export default class PublisherService {
  constructor(
    protected tenancy: TenancyService,
    protected invitations: InvitationService,
    protected accessLog: AccessLogService
  ) {}

  /**
   * The publisher row, its schema and its tenant tables are created in one
   * transaction: a publisher never exists without its world, nor the reverse.
   */
  async create(principal: Principal, input: CreatePublisherInput) {
    if (await Publisher.findBy('slug', input.slug)) {
      throw ApiProblem.conflict('slug_taken', `A publisher with slug "${input.slug}" already exists.`)
    }
    const label = input.label ? await Label.findBy('slug', input.label) : null
    if (input.label && !label) {
      throw ApiProblem.unprocessable([{ field: 'label', code: 'exists', message: `No label with slug "${input.label}".` }])
    }

    const id = uuidv7()
    const { publisher, invitationUrl } = await db.transaction(async (trx) => {
      const created = await Publisher.create(
        {
          id,
          slug: input.slug,
          name: input.name,
          contactEmail: input.contact_email,
          labelId: label?.id ?? null,
          country: input.country ?? 'NL',
          status: 'invited',
          deliveryMethods: [],
          onboardingStep: 'choose_delivery_method',
          schemaName: TenancyService.schemaNameFor(id),
          qualityRules: {},
        },
        { client: trx }
      )
      await this.tenancy.provision(trx, created)
      const invitation = await this.invitations.create(trx, created)
      await this.accessLog.record(
        { actor: principal.actor, action: 'publisher.invited', subjectType: 'publisher', subjectId: created.id, publisherId: created.id },
        trx
      )
      return { publisher: created, invitationUrl: invitation.url }
    })
    publisher.$setRelated('label', label as Label)
    await this.invitations.send(publisher, invitationUrl)
    return publisher
  }

  visibleTo(principal: Principal) {
    const query = Publisher.query().preload('label')
    if (!principal.isOperator) {
      query.where('id', principal.publisherId ?? '00000000-0000-0000-0000-000000000000')
    }
    return query
  }

  async findVisible(principal: Principal, id: string) {
    const publisher = await this.visibleTo(principal).where('id', id).first()
    if (!publisher) throw ApiProblem.notFound('publisher')
    return publisher
  }

  async update(principal: Principal, publisher: Publisher, input: UpdatePublisherInput) {
    publisher.merge({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.delivery_methods !== undefined ? { deliveryMethods: [...new Set(input.delivery_methods)] } : {}),
    })
    publisher.onboardingStep = onboardingStepOf(publisher)
    await publisher.save()
    await this.accessLog.record({
      actor: principal.actor,
      action: 'publisher.updated',
      subjectType: 'publisher',
      subjectId: publisher.id,
      publisherId: publisher.id,
      details: { fields: Object.keys(input) },
    })
    return publisher
  }
}

/** Onboarding, in the spec's order: invite, choose delivery method, set quality rules, go live. */
export function onboardingStepOf(publisher: Publisher) {
  if (publisher.status === 'live' || publisher.status === 'paused') return 'monitor'
  if (publisher.deliveryMethods.length === 0) return 'choose_delivery_method'
  if (Object.keys(publisher.qualityRules ?? {}).length === 0) return 'set_quality_rules'
  return 'go_live'
}
