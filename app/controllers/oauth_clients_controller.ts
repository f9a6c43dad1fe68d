import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate } from '#services/sql/cursor_pagination'
import OauthClientService from '#services/access/oauth_client_service'
import { createOauthClientValidator } from '#validators/oauth_client'
import OauthClientTransformer from '#transformers/oauth_client_transformer'

@inject()
export default class OauthClientsController {
  constructor(protected clients: OauthClientService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('create')
    const input = await request.validateUsing(createOauthClientValidator)
    const { client, clientSecret } = await this.clients.create(principal, input)
    const json = await serialize(OauthClientTransformer.transform(client))
    return response.created({ ...json, client_secret: clientSecret })
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('viewList')
    const page = await paginate(
      this.clients.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return serializePage(OauthClientTransformer.transform(page.data), page.nextCursor)
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const client = await this.clients.findVisible(principal, params.id)
    await bouncer.with('CredentialPolicy').authorize('delete', client)
    await this.clients.revoke(principal, client)
    return response.noContent()
  }
}
