import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { Bouncer } from '@adonisjs/bouncer'
import * as abilities from '#abilities/main'
import { policies } from '#policies/main'
import { principalForUser } from '#auth/portal_principal'

/** Portal pages authorise with the same policies as the API, through the user's principal. */
export default class PortalBouncerMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const principal = principalForUser(ctx.auth.getUserOrFail())
    ctx.principal = principal
    ctx.bouncer = new Bouncer(() => principal, abilities, policies).setContainerResolver(
      ctx.containerResolver
    )
    return next()
  }
}
