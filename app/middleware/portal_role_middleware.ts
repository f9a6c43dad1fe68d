import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { PrincipalKind } from '#auth/principal'
import { errors } from '@adonisjs/core'

/**
 * Each portal lives under its own prefix (/operator, /publisher, /buyer, /compliance).
 * Another role's portal answers 404, as another owner's resource does.
 */
export default class PortalRoleMiddleware {
  async handle(ctx: HttpContext, next: NextFn, options: { kinds: PrincipalKind[] }) {
    if (!options.kinds.includes(ctx.principal.kind)) {
      throw new errors.E_ROUTE_NOT_FOUND([ctx.request.method(), ctx.request.url()])
    }
    return next()
  }
}
