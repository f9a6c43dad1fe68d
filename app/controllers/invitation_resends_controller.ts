import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import InvitationService from '#services/access/invitation_service'
import UserInvitationService from '#services/access/user_invitation_service'
import UserService from '#services/access/user_service'
import PublisherService from '#services/catalogue/publisher_service'
import InvitationTransformer from '#transformers/invitation_transformer'

/** A fresh invitation link, mailed again; the earlier one stops working. */
@inject()
export default class InvitationResendsController {
  constructor(
    protected publishers: PublisherService,
    protected invitations: InvitationService,
    protected users: UserService,
    protected userInvitations: UserInvitationService
  ) {}

  async publisher({ params, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('resendInvitation')
    const resent = await this.invitations.resend(principal, publisher)
    return serialize(InvitationTransformer.transform(resent))
  }

  async user({ params, principal, bouncer, serialize }: HttpContext) {
    const user = await this.users.findVisible(principal, params.id)
    await bouncer.with('UserPolicy').authorize('resendInvitation')
    const resent = await this.userInvitations.resend(principal, user)
    return serialize(InvitationTransformer.transform(resent))
  }
}
