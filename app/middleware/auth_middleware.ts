import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { Authenticators } from '@adonisjs/auth/types'

export default class AuthMiddleware {
  redirectTo = '/login'

  async handle(
    ctx: HttpContext,
    next: NextFn,
    options: { guards?: (keyof Authenticators)[] } = {}
  ) {
    await ctx.auth.authenticateUsing(options.guards, { loginRoute: this.redirectTo })
    // A user disabled while signed in is signed out on its very next request.
    if (ctx.auth.user?.disabledAt) {
      await ctx.auth.use('web').logout()
      ctx.session.clear()
      return ctx.response.redirect(this.redirectTo)
    }
    return next()
  }
}
