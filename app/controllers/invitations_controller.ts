import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import InvitationService, { type InvitationUnavailable } from '#services/access/invitation_service'
import { acceptInvitationValidator } from '#validators/invitation'
import { signInToPortal } from '#controllers/concerns/portal_session'

/** An unknown link is not found; a spent or expired one is gone; a taken address conflicts. */
const STATUS: Record<InvitationUnavailable, number> = {
  unknown: 404,
  expired: 410,
  accepted: 410,
  email_taken: 409,
}

@inject()
export default class InvitationsController {
  constructor(protected invitations: InvitationService) {}

  async show({ params, inertia, response }: HttpContext) {
    const found = await this.invitations.find(params.token)
    if (found.state !== 'pending') {
      return this.unavailable({ inertia, response }, found.state)
    }
    return inertia.render('invitations/accept', {
      token: params.token,
      publisher: { name: found.publisher.name },
      email: found.invitation.email,
    })
  }

  async store(ctx: HttpContext) {
    const { params, request, inertia, response } = ctx
    const { password } = await request.validateUsing(acceptInvitationValidator)
    const accepted = await this.invitations.accept(params.token, { password })
    if (accepted.state !== 'created') {
      return this.unavailable({ inertia, response }, accepted.state)
    }
    await signInToPortal(ctx, accepted.user)
    return response.redirect('/portal')
  }

  protected unavailable(
    { inertia, response }: Pick<HttpContext, 'inertia' | 'response'>,
    reason: InvitationUnavailable
  ) {
    response.status(STATUS[reason])
    return inertia.render('invitations/unavailable', { reason })
  }
}
