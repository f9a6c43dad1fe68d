import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiProblem from '#exceptions/api_problem'
import PasswordService from '#services/access/password_service'
import UserSessionService from '#services/access/user_session_service'
import { changePasswordValidator } from '#validators/account'
import { waitFor } from '#controllers/concerns/portal_session'

/** `/account`: the signed-in user's own password and sessions, whatever its role. */
@inject()
export default class AccountController {
  constructor(
    protected sessions: UserSessionService,
    protected passwords: PasswordService
  ) {}

  async show({ inertia, auth, session }: HttpContext) {
    const user = auth.getUserOrFail()
    return inertia.render('account/show', {
      email: user.email,
      sessions: await this.sessions.list(user, session.sessionId),
    })
  }

  async updatePassword({ request, response, session, auth }: HttpContext) {
    const input = await request.validateUsing(changePasswordValidator)
    const outcome = await this.passwords.change(auth.getUserOrFail(), input, session.sessionId)
    if (outcome.state !== 'changed') {
      session.flash('inputErrorsBag', {
        current_password: [
          outcome.state === 'throttled'
            ? `Too many wrong passwords. Try again in ${waitFor(outcome.retryAfter)}.`
            : 'This is not your current password.',
        ],
      })
      return response.redirect().back()
    }
    session.flash('notice', {
      severity: 'success',
      summary: outcome.signedOut
        ? `Password changed. ${signedOutOf(outcome.signedOut)}`
        : 'Password changed.',
    })
    return response.redirect('/account')
  }

  async destroySession({ params, response, session, auth }: HttpContext) {
    if (!(await this.sessions.revoke(auth.getUserOrFail(), params.id))) {
      throw ApiProblem.notFound('session')
    }
    session.flash('notice', { severity: 'success', summary: 'That session is signed out.' })
    return response.redirect('/account')
  }

  async destroyOtherSessions({ response, session, auth }: HttpContext) {
    const ended = await this.sessions.revokeOthers(
      auth.getUserOrFail(),
      session.sessionId,
      'signed_out_elsewhere'
    )
    session.flash('notice', {
      severity: 'success',
      summary: ended ? signedOutOf(ended) : 'No other session was open.',
    })
    return response.redirect('/account')
  }
}

function signedOutOf(count: number) {
  return count === 1
    ? 'Your other session is signed out.'
    : `Your ${count} other sessions are signed out.`
}
