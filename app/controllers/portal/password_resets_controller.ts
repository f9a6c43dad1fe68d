import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PasswordService from '#services/access/password_service'
import { forgotPasswordValidator } from '#validators/password_reset'
import { acceptInvitationValidator } from '#validators/invitation'
import { linkUnavailable, waitFor } from '#controllers/concerns/portal_session'

/** "Forgot password?": ask for a link by e-mail, then choose a new password through it. */
@inject()
export default class PasswordResetsController {
  constructor(protected passwords: PasswordService) {}

  async create({ inertia, session }: HttpContext) {
    return inertia.render('auth/forgot_password', {
      sent: Boolean(session.flashMessages.get('reset_requested')),
    })
  }

  /** The same answer whether or not the address has an account. */
  async store({ request, response, session }: HttpContext) {
    const { email } = await request.validateUsing(forgotPasswordValidator)
    const { retryAfter } = await this.passwords.requestReset(email, request.ip())
    if (retryAfter !== undefined) {
      session.flash('inputErrorsBag', {
        email: [`Too many reset requests. Try again in ${waitFor(retryAfter)}.`],
      })
      return response.redirect().back()
    }
    session.flash('reset_requested', true)
    return response.redirect('/forgot-password')
  }

  async show({ params, inertia, response }: HttpContext) {
    const found = await this.passwords.findReset(params.token)
    if (found.state !== 'valid') {
      return linkUnavailable({ inertia, response }, found.state, 'password_reset')
    }
    return inertia.render('auth/choose_password', {
      purpose: 'password_reset',
      token: params.token,
      email: found.user.email,
    })
  }

  async update({ params, request, inertia, response, session }: HttpContext) {
    const { password } = await request.validateUsing(acceptInvitationValidator)
    const outcome = await this.passwords.reset(params.token, password)
    if (outcome.state !== 'reset') {
      return linkUnavailable({ inertia, response }, outcome.state, 'password_reset')
    }
    session.flash('login_status', 'password_reset')
    return response.redirect('/login')
  }
}
