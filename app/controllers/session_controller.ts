import User from '#models/user'
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { errors as authErrors } from '@adonisjs/auth'
import { loginValidator } from '#validators/session'
import { withLimiter } from '#services/access/limiter_store'
import UserSessionService from '#services/access/user_session_service'
import { recheckLiveAccess } from '#services/reports/live_access'
import { signInToPortal, waitFor } from '#controllers/concerns/portal_session'

const REFUSED = 'These credentials do not match an active account.'

/** Five wrong passwords for one address from one place, then a quarter of an hour's wait. */
const LOGIN_THROTTLE = { requests: 5, duration: '15 minutes', blockDuration: '15 minutes' }

@inject()
export default class SessionController {
  constructor(protected sessions: UserSessionService) {}

  async create({ inertia, session }: HttpContext) {
    // Set by a password reset: the page says the new password is ready to use.
    return inertia.render('auth/login', {
      status: session.flashMessages.get('login_status') ?? null,
    })
  }

  async store(ctx: HttpContext) {
    const { request, response, session } = ctx
    const { email, password } = await request.validateUsing(loginValidator)
    const address = email.toLowerCase()
    const [throttled, user] = await withLimiter(LOGIN_THROTTLE, (counted) =>
      counted.penalize(`login:${address}:${request.ip()}`, () => this.verify(address, password))
    ).catch((error) => {
      if (error instanceof RefusedLogin) return [null, null] as const
      throw error
    })
    if (throttled) {
      session.flash('inputErrorsBag', {
        email: [
          `Too many failed sign-ins. Try again in ${waitFor(throttled.response.availableIn)}.`,
        ],
      })
      return response.redirect().back()
    }
    if (!user) {
      // The bag the Inertia middleware turns into the page's `errors` prop.
      session.flash('inputErrorsBag', { email: [REFUSED] })
      return response.redirect().back()
    }
    await signInToPortal(ctx, user)
    return response.redirect('/portal')
  }

  async destroy({ auth, response, session }: HttpContext) {
    await this.sessions.close(auth.getUserOrFail(), session.sessionId)
    await auth.use('web').logout()
    // The session itself goes too: its cookie must not sign anyone in again.
    session.clear()
    await session.regenerate()
    // The session's open dashboards in this process stop hearing figures now, not at the next check.
    await recheckLiveAccess()
    return response.redirect('/login')
  }

  /**
   * A wrong password and a disabled account look the same to the visitor;
   * both count against the throttle (the throw is what `penalize` counts).
   */
  protected async verify(email: string, password: string) {
    const user = await User.verifyCredentials(email, password).catch((error) => {
      if (error instanceof authErrors.E_INVALID_CREDENTIALS) throw new RefusedLogin()
      throw error
    })
    if (user.disabledAt) throw new RefusedLogin()
    return user
  }
}

class RefusedLogin extends Error {}
