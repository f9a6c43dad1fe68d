import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { Authenticators } from '@adonisjs/auth/types'
import UserSessionService from '#services/access/user_session_service'

export default class AuthMiddleware {
  redirectTo = '/login'

  async handle(
    ctx: HttpContext,
    next: NextFn,
    options: { guards?: (keyof Authenticators)[] } = {}
  ) {
    await ctx.auth.authenticateUsing(options.guards, { loginRoute: this.redirectTo })
    const user = ctx.auth.getUserOrFail()
    const sessions = await ctx.containerResolver.make(UserSessionService)
    // A user disabled while signed in, and a session signed out from elsewhere (or never
    // recorded), end on the very next request.
    if (user.disabledAt || !(await sessions.isOpen(user, ctx.session.sessionId))) {
      await ctx.auth.use('web').logout()
      ctx.session.clear()
      return ctx.response.redirect(this.redirectTo)
    }
    return next()
  }
}
