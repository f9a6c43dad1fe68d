import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate, pageToJson } from '#services/sql/cursor_pagination'
import OauthClientService from '#services/access/oauth_client_service'
import { createOauthClientValidator } from '#validators/oauth_client'
import { oauthClientToJson } from '#transformers/credential_transformer'

@inject()
export default class OauthClientsController {
  constructor(protected clients: OauthClientService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('create')
    const input = await request.validateUsing(createOauthClientValidator)
    const { client, clientSecret } = await this.clients.create(principal, input)
    return response.created({ ...oauthClientToJson(client), client_secret: clientSecret })
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('viewList')
    const page = await paginate(
      this.clients.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return pageToJson(page, oauthClientToJson)
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const client = await this.clients.findVisible(principal, params.id)
    await bouncer.with('CredentialPolicy').authorize('delete', client)
    await this.clients.revoke(principal, client)
    return response.noContent()
  }
}
