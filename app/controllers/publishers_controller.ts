import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PublisherService from '#services/catalogue/publisher_service'
import OnboardingService from '#services/catalogue/onboarding_service'
import {
  confirmRulesValidator,
  createPublisherValidator,
  listPublishersValidator,
  updatePublisherValidator,
} from '#validators/publisher'
import PublisherTransformer from '#transformers/publisher_transformer'

@inject()
export default class PublishersController {
  constructor(
    protected publishers: PublisherService,
    protected onboarding: OnboardingService
  ) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('create')
    const input = await request.validateUsing(createPublisherValidator)
    const publisher = await this.publishers.create(principal, input)
    return response.created(await serialize(PublisherTransformer.transform(publisher)))
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('viewList')
    const filters = await request.validateUsing(listPublishersValidator)
    const page = await this.publishers.list(principal, filters)
    return serializePage(PublisherTransformer.transform(page.data), page.nextCursor)
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('view', publisher)
    return serialize(PublisherTransformer.transform(publisher))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    const input = await request.validateUsing(updatePublisherValidator)
    // What the validated input changes decides whether a publisher may do it itself.
    const changes = Object.keys(input).filter(
      (field) => input[field as keyof typeof input] !== undefined
    )
    await bouncer.with('PublisherPolicy').authorize('update', publisher, changes)
    const updated = await this.publishers.update(principal, publisher, input)
    return serialize(PublisherTransformer.transform(updated))
  }

  async confirmRules({ params, request, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('confirmRules', publisher)
    const { rules_version: version } = await request.validateUsing(confirmRulesValidator)
    const confirmed = await this.onboarding.confirmRules(principal, publisher, version)
    return serialize(PublisherTransformer.transform(confirmed))
  }

  async requestGoLive({ params, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('requestGoLive', publisher)
    const requested = await this.onboarding.requestGoLive(principal, publisher)
    return serialize(PublisherTransformer.transform(requested))
  }
}
