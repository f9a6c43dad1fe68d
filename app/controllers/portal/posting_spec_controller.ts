import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { appUrl } from '#config/app'
import PublisherService from '#services/catalogue/publisher_service'
import PostingSpecService from '#services/catalogue/posting_spec_service'

// A user without a publisher finds nothing (404) rather than a malformed uuid (500).
const NO_ID = '00000000-0000-0000-0000-000000000000'

/**
 * The publisher's posting spec in its portal: the document GET /v1/publishers/{id}/posting-spec
 * answers, and its versions with what each changed. Same policy and service as the API.
 */
@inject()
export default class PortalPostingSpecController {
  constructor(
    protected publishers: PublisherService,
    protected postingSpecs: PostingSpecService
  ) {}

  async show({ inertia, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, principal.publisherId ?? NO_ID)
    await bouncer.with('QualityRulesPolicy').authorize('view', publisher)
    const spec = await this.postingSpecs.current(publisher)
    return inertia.render('publisher/posting_spec', {
      spec,
      versions: spec.info['x-leadgate-versions'],
      rules: spec.info['x-leadgate-rules'],
      api_url: `${appUrl}/v1/publishers/${publisher.id}/posting-spec`,
    })
  }
}
