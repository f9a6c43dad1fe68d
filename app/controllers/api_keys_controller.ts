import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate } from '#services/sql/cursor_pagination'
import ApiKeyService from '#services/access/api_key_service'
import { createApiKeyValidator } from '#validators/api_key'
import ApiKeyTransformer from '#transformers/api_key_transformer'

@inject()
export default class ApiKeysController {
  constructor(protected apiKeys: ApiKeyService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('create')
    const input = await request.validateUsing(createApiKeyValidator)
    const { apiKey, secret } = await this.apiKeys.create(principal, input)
    return response.created({
      ...(await serialize(ApiKeyTransformer.transform(apiKey))),
      key: secret,
    })
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('viewList')
    const page = await paginate(
      this.apiKeys.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return serializePage(ApiKeyTransformer.transform(page.data), page.nextCursor)
  }

  async destroy({ params, response, principal, bouncer }: HttpContext) {
    const apiKey = await this.apiKeys.findVisible(principal, params.id)
    await bouncer.with('CredentialPolicy').authorize('delete', apiKey)
    await this.apiKeys.revoke(principal, apiKey)
    return response.noContent()
  }
}
