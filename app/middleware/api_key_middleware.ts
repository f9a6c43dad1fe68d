import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { Bouncer } from '@adonisjs/bouncer'
import * as abilities from '#abilities/main'
import { policies } from '#policies/main'
import type Principal from '#auth/principal'
import CredentialAuthenticator from '#services/access/credential_authenticator'

const authenticator = new CredentialAuthenticator()

/**
 * Authenticates `Authorization: Bearer <key or access token>` and makes the
 * caller available as `ctx.principal` and to Bouncer.
 */
export default class ApiKeyMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const header = ctx.request.header('authorization') ?? ''
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    const principal = await authenticator.authenticate(match?.[1], ctx.request.ip())

    ctx.principal = principal
    ctx.bouncer = new Bouncer(() => principal, abilities, policies).setContainerResolver(
      ctx.containerResolver
    )
    ctx.containerResolver.bindValue('principal' as any, principal)
    return next()
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    principal: Principal
    bouncer: Bouncer<Principal, typeof abilities, typeof policies>
  }
}
