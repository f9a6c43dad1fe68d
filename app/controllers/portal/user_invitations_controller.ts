import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import UserInvitationService from '#services/access/user_invitation_service'
import { acceptInvitationValidator } from '#validators/invitation'
import { linkUnavailable, signInToPortal } from '#controllers/concerns/portal_session'

/** `/welcome/<token>`: a user created without a password chooses one and is signed in. */
@inject()
export default class UserInvitationsController {
  constructor(protected invitations: UserInvitationService) {}

  async show({ params, inertia, response }: HttpContext) {
    const found = await this.invitations.find(params.token)
    if (found.state !== 'valid') {
      return linkUnavailable({ inertia, response }, found.state, 'invitation')
    }
    return inertia.render('auth/choose_password', {
      purpose: 'invitation',
      token: params.token,
      email: found.user.email,
    })
  }

  async store(ctx: HttpContext) {
    const { params, request, inertia, response } = ctx
    const { password } = await request.validateUsing(acceptInvitationValidator)
    const accepted = await this.invitations.accept(params.token, password)
    if (accepted.state !== 'accepted') {
      return linkUnavailable({ inertia, response }, accepted.state, 'invitation')
    }
    await signInToPortal(ctx, accepted.user)
    return response.redirect('/portal')
  }
}
