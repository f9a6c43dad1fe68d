import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PublisherService from '#services/catalogue/publisher_service'
import PostingSpecService from '#services/catalogue/posting_spec_service'

@inject()
export default class PostingSpecsController {
  constructor(
    protected publishers: PublisherService,
    protected postingSpecs: PostingSpecService
  ) {}

  /** The publisher's posting spec: who may read its quality rules may read what they ask of a lead. */
  async show({ params, principal, bouncer, response }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('QualityRulesPolicy').authorize('view', publisher)
    response.header('content-type', 'application/json; charset=utf-8')
    return this.postingSpecs.current(publisher)
  }
}
