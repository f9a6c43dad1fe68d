import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import OauthTokenService from '#services/access/oauth_token_service'

@inject()
export default class OauthTokensController {
  constructor(protected tokens: OauthTokenService) {}

  /** RFC 6749 §5.1: the token response is never cached. */
  async store({ request, response }: HttpContext) {
    const token = await this.tokens.issue({
      headers: request.headers(),
      body: request.body(),
      ip: request.ip(),
    })
    response.header('cache-control', 'no-store')
    response.header('pragma', 'no-cache')
    return token
  }
}
