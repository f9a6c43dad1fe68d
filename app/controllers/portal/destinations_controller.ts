import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import DestinationService from '#services/selling/destination_service'
import { testDestination } from '#services/selling/destination_tester'
import { PluginRegistry } from '#services/plugins/plugin_registry'
import DestinationTestTransformer from '#transformers/destination_test_transformer'
import DestinationTransformer from '#transformers/destination_transformer'
import PluginManifestTransformer from '#transformers/plugin_manifest_transformer'
import { pageValidator } from '#validators/pagination'
import {
  createDestinationValidator,
  testDestinationValidator,
  updateDestinationValidator,
} from '#validators/destination'
import type { InferData } from '@adonisjs/core/types/transformers'

/**
 * `/buyer/destinations`: the buyer portal's face of /v1/buyers/{id}/destinations, the same
 * validators, policy and DestinationService. The signing secret of a new http destination is
 * shown once (the session's flash); the test button's result comes back the same way.
 */
@inject()
export default class DestinationsController {
  constructor(
    protected destinations: DestinationService,
    protected plugins: PluginRegistry
  ) {}

  async index({ inertia, request, principal, bouncer }: HttpContext) {
    const policy = bouncer.with('DestinationPolicy')
    await policy.authorize('view')
    // A hand-edited address falls back to the first page instead of failing the page.
    const [invalid, page] = await pageValidator.tryValidate(request.qs())
    const destinations = await this.destinations.list(
      principal,
      buyerOf(principal),
      invalid ? {} : page
    )
    return inertia.render('buyer/destinations/index', {
      destinations: DestinationTransformer.transform(destinations.data),
      next_cursor: destinations.nextCursor,
      can_manage: await policy.allows('change'),
    })
  }

  async create({ inertia, bouncer }: HttpContext) {
    await bouncer.with('DestinationPolicy').authorize('change')
    return inertia.render('buyer/destinations/form', {
      destination: null,
      crm_plugins: this.crmPlugins(),
      test_result: null,
      can_manage: true,
    })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('DestinationPolicy').authorize('change')
    const input = await request.validateUsing(createDestinationValidator)
    const { destination, signingSecret } = await this.destinations.create(
      principal,
      buyerOf(principal),
      input
    )
    if (signingSecret) {
      session.flash('secret', {
        label: `Signing secret of ${destination.name}`,
        value: signingSecret,
      })
    }
    session.flash('notice', { severity: 'success', summary: 'Destination added' })
    return response.redirect().toRoute('buyer.destinations.edit', { id: destination.id })
  }

  async edit({ inertia, params, session, principal, bouncer }: HttpContext) {
    const policy = bouncer.with('DestinationPolicy')
    await policy.authorize('view')
    const destination = await this.destinations.find(principal, buyerOf(principal), params.id)
    const tested = session.flashMessages.get('test_result') as
      { destination_id: string; result: InferData<DestinationTestTransformer> } | undefined
    return inertia.render('buyer/destinations/form', {
      destination: DestinationTransformer.transform(destination),
      crm_plugins: this.crmPlugins(),
      // The test just run (the test button redirects back here), for this destination only.
      test_result: tested?.destination_id === destination.id ? tested.result : null,
      can_manage: await policy.allows('change'),
    })
  }

  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const destination = await this.destinations.find(principal, buyerOf(principal), params.id)
    await bouncer.with('DestinationPolicy').authorize('change')
    const patch = await request.validateUsing(updateDestinationValidator)
    await this.destinations.update(principal, destination, patch)
    session.flash('notice', { severity: 'success', summary: 'Destination saved' })
    return response.redirect().toRoute('buyer.destinations.edit', { id: destination.id })
  }

  async destroy({ params, response, session, principal, bouncer }: HttpContext) {
    const destination = await this.destinations.find(principal, buyerOf(principal), params.id)
    await bouncer.with('DestinationPolicy').authorize('change')
    await this.destinations.delete(principal, destination)
    session.flash('notice', { severity: 'success', summary: 'Destination deleted' })
    return response.redirect().toRoute('buyer.destinations.index')
  }

  /** Sends the sample lead for real, as the API's test does; nothing is sold or recorded. */
  async test({ params, request, response, session, principal, bouncer, serialize }: HttpContext) {
    const destination = await this.destinations.find(principal, buyerOf(principal), params.id)
    await bouncer.with('DestinationPolicy').authorize('change')
    const { lead } = await request.validateUsing(testDestinationValidator)
    const result = await testDestination(destination, lead)
    session.flash('test_result', {
      destination_id: destination.id,
      result: await serialize(DestinationTestTransformer.transform(result)),
    })
    return response.redirect().toRoute('buyer.destinations.edit', { id: destination.id })
  }

  /** The CRM adapters a crm destination may use, with their settings schemas. */
  private crmPlugins(): InferData<PluginManifestTransformer>[] {
    return this.plugins
      .list()
      .filter((manifest) => manifest.kind === 'crm')
      .map((manifest) => ({ ...manifest }))
  }
}

/** The buyer portal is one buyer's: the portal stack let only its users in. */
function buyerOf(principal: Principal) {
  return principal.buyerId ?? ''
}
