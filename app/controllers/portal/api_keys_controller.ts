import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiKeyService from '#services/access/api_key_service'
import OauthClientService from '#services/access/oauth_client_service'
import { ownerDirectory } from '#services/catalogue/owner_directory'
import { paginate } from '#services/sql/cursor_pagination'
import OwnerDirectoryTransformer from '#transformers/owner_directory_transformer'
import ApiKeyTransformer from '#transformers/api_key_transformer'
import OauthClientTransformer from '#transformers/oauth_client_transformer'
import { createApiKeyValidator, keysPageValidator } from '#validators/api_key'

/**
 * `/<role>/keys`: the portal's face of /v1/api-keys, and for the operator of
 * /v1/oauth-clients too. Same validator, policy, service and JSON as the API;
 * a new key is shown once, through the session's flash.
 */
@inject()
export default class ApiKeysController {
  constructor(
    protected apiKeys: ApiKeyService,
    protected clients: OauthClientService
  ) {}

  async index({ inertia, request, principal, bouncer, serializePage }: HttpContext) {
    const credentials = bouncer.with('CredentialPolicy')
    await credentials.authorize('viewIssued')
    // A hand-edited address falls back to the first pages instead of failing the page.
    const [invalid, query] = await keysPageValidator.tryValidate(request.qs())
    const pages = invalid ? {} : query
    const showClients = principal.isOperator

    const [apiKeys, oauthClients, owners, manage] = await Promise.all([
      paginate(this.apiKeys.visibleTo(principal), { cursor: pages.cursor }),
      showClients
        ? paginate(this.clients.visibleTo(principal), { cursor: pages.clients_cursor })
        : null,
      ownerDirectory(principal),
      credentials.allows('create'),
    ])

    return inertia.render('integrations/keys', {
      base: `/${principal.kind}`,
      apiKeys: await serializePage(ApiKeyTransformer.transform(apiKeys.data), apiKeys.nextCursor),
      oauthClients:
        oauthClients &&
        (await serializePage(
          OauthClientTransformer.transform(oauthClients.data),
          oauthClients.nextCursor
        )),
      owners: OwnerDirectoryTransformer.transform(owners),
      canManage: manage,
      queryInvalid: Boolean(invalid),
    })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('create')
    const input = await request.validateUsing(createApiKeyValidator)
    const { apiKey, secret } = await this.apiKeys.create(principal, input)
    session.flash('secret', { label: `API key "${apiKey.name}"`, value: secret })
    session.flash('notice', { severity: 'success', summary: 'API key created' })
    return response.redirect(`/${principal.kind}/keys`)
  }

  async destroy({ params, response, session, principal, bouncer }: HttpContext) {
    const apiKey = await this.apiKeys.findVisible(principal, params.id)
    await bouncer.with('CredentialPolicy').authorize('delete', apiKey)
    await this.apiKeys.revoke(principal, apiKey)
    session.flash('notice', { severity: 'success', summary: `API key "${apiKey.name}" revoked` })
    return response.redirect(`/${principal.kind}/keys`)
  }
}
