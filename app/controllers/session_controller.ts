import User from '#models/user'
import type { HttpContext } from '@adonisjs/core/http'
import { errors as authErrors } from '@adonisjs/auth'
import { loginValidator } from '#validators/session'

const REFUSED = 'These credentials do not match an active account.'

export default class SessionController {
  async create({ inertia }: HttpContext) {
    return inertia.render('auth/login', {})
  }

  async store({ request, auth, response, session }: HttpContext) {
    const { email, password } = await request.validateUsing(loginValidator)
    const user = await this.verify(email.toLowerCase(), password)
    if (!user) {
      // The bag the Inertia middleware turns into the page's `errors` prop.
      session.flash('inputErrorsBag', { email: [REFUSED] })
      return response.redirect().back()
    }
    await auth.use('web').login(user)
    return response.redirect('/portal')
  }

  async destroy({ auth, response }: HttpContext) {
    await auth.use('web').logout()
    return response.redirect('/login')
  }

  /** A wrong password and a disabled account look the same to the visitor. */
  protected async verify(email: string, password: string) {
    try {
      const user = await User.verifyCredentials(email, password)
      return user.disabledAt ? null : user
    } catch (error) {
      if (error instanceof authErrors.E_INVALID_CREDENTIALS) return null
      throw error
    }
  }
}
