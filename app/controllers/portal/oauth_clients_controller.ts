import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import OauthClientService from '#services/access/oauth_client_service'
import { createOauthClientValidator } from '#validators/oauth_client'

/**
 * OAuth clients on the operator's keys page (listed by the keys controller):
 * the same validator, policy and service as /v1/oauth-clients.
 */
@inject()
export default class OauthClientsController {
  constructor(protected clients: OauthClientService) {}

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('create')
    const input = await request.validateUsing(createOauthClientValidator)
    const { client, clientSecret } = await this.clients.create(principal, input)
    session.flash('secret', {
      label: `Client secret of OAuth client "${client.name}" (client id ${client.clientId})`,
      value: clientSecret,
    })
    session.flash('notice', { severity: 'success', summary: 'OAuth client created' })
    return response.redirect(`/${principal.kind}/keys`)
  }

  async destroy({ params, response, session, principal, bouncer }: HttpContext) {
    const client = await this.clients.findVisible(principal, params.id)
    await bouncer.with('CredentialPolicy').authorize('delete', client)
    await this.clients.revoke(principal, client)
    session.flash('notice', {
      severity: 'success',
      summary: `OAuth client "${client.name}" revoked`,
    })
    return response.redirect(`/${principal.kind}/keys`)
  }
}
