import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PublisherService from '#services/catalogue/publisher_service'
import OnboardingService from '#services/catalogue/onboarding_service'
import { pageToJson } from '#services/sql/cursor_pagination'
import {
  confirmRulesValidator,
  createPublisherValidator,
  listPublishersValidator,
  updatePublisherValidator,
} from '#validators/publisher'
import { publisherToJson } from '#transformers/publisher_transformer'

@inject()
export default class PublishersController {
  constructor(
    protected publishers: PublisherService,
    protected onboarding: OnboardingService
  ) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('create')
    const input = await request.validateUsing(createPublisherValidator)
    return response.created(publisherToJson(await this.publishers.create(principal, input)))
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('viewList')
    const filters = await request.validateUsing(listPublishersValidator)
    return pageToJson(await this.publishers.list(principal, filters), publisherToJson)
  }

  async show({ params, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('view', publisher)
    return publisherToJson(publisher)
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    const input = await request.validateUsing(updatePublisherValidator)
    // What the validated input changes decides whether a publisher may do it itself.
    const changes = Object.keys(input).filter(
      (field) => input[field as keyof typeof input] !== undefined
    )
    await bouncer.with('PublisherPolicy').authorize('update', publisher, changes)
    return publisherToJson(await this.publishers.update(principal, publisher, input))
  }

  async confirmRules({ params, request, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('confirmRules', publisher)
    const { rules_version: version } = await request.validateUsing(confirmRulesValidator)
    return publisherToJson(await this.onboarding.confirmRules(principal, publisher, version))
  }

  async requestGoLive({ params, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('requestGoLive', publisher)
    return publisherToJson(await this.onboarding.requestGoLive(principal, publisher))
  }
}
