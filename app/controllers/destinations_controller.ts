import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import DestinationService from '#services/selling/destination_service'
import { testDestination } from '#services/selling/destination_tester'
import DestinationTransformer from '#transformers/destination_transformer'
import {
  createDestinationValidator,
  listDestinationsValidator,
  testDestinationValidator,
  updateDestinationValidator,
} from '#validators/destination'

/** `/v1/buyers/{id}/destinations`: how a buyer takes its leads (docs/selling.md). */
@inject()
export default class DestinationsController {
  constructor(protected destinations: DestinationService) {}

  async index({ params, request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('DestinationPolicy').authorize('view')
    const query = await listDestinationsValidator.validate(request.qs())
    const page = await this.destinations.list(principal, params.id, query)
    return serializePage(DestinationTransformer.transform(page.data), page.nextCursor)
  }

  async store({ params, request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('DestinationPolicy').authorize('change')
    const input = await request.validateUsing(createDestinationValidator)
    const { destination, signingSecret } = await this.destinations.create(
      principal,
      params.id,
      input
    )
    return response.created({
      ...(await serialize(DestinationTransformer.transform(destination))),
      ...(signingSecret ? { signing_secret: signingSecret } : {}),
    })
  }

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('DestinationPolicy').authorize('view')
    const destination = await this.destinations.find(principal, params.id, params.destination_id)
    return serialize(DestinationTransformer.transform(destination))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const destination = await this.destinations.find(principal, params.id, params.destination_id)
    await bouncer.with('DestinationPolicy').authorize('change')
    const patch = await request.validateUsing(updateDestinationValidator)
    const updated = await this.destinations.update(principal, destination, patch)
    return serialize(DestinationTransformer.transform(updated))
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const destination = await this.destinations.find(principal, params.id, params.destination_id)
    await bouncer.with('DestinationPolicy').authorize('change')
    await this.destinations.delete(principal, destination)
    return response.noContent()
  }

  async test({ params, request, principal, bouncer }: HttpContext) {
    const destination = await this.destinations.find(principal, params.id, params.destination_id)
    await bouncer.with('DestinationPolicy').authorize('change')
    const { lead } = await request.validateUsing(testDestinationValidator)
    return testDestination(destination, lead)
  }
}
