import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import type User from '#models/user'
import UserService from '#services/access/user_service'
import UserInvitationService from '#services/access/user_invitation_service'
import { userActivity } from '#services/access/user_activity'
import BuyerService from '#services/catalogue/buyer_service'
import LabelService from '#services/catalogue/label_service'
import PublisherService from '#services/catalogue/publisher_service'
import { paginate } from '#services/sql/cursor_pagination'
import UserTransformer from '#transformers/user_transformer'
import { pageValidator } from '#validators/pagination'
import { createUserValidator, updateUserValidator } from '#validators/user'

/** How many publishers, buyers and labels the operator's invite form offers to choose from. */
const CHOICES = 500

/**
 * Portal users, for the operator (everyone) and a publisher (its own): the
 * list, invitations, permissions, revoking and restoring access. The same
 * validators, policy and services as /v1/users; every change is in the access log.
 */
@inject()
export default class PortalUsersController {
  constructor(
    protected users: UserService,
    protected invitations: UserInvitationService,
    protected publishers: PublisherService,
    protected buyers: BuyerService,
    protected labels: LabelService
  ) {}

  async index({ request, inertia, principal, bouncer, auth, serializePage }: HttpContext) {
    await bouncer.with('UserPolicy').authorize('viewList')
    const page = await paginate(
      this.users.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    const activity = await userActivity(page.data.map((user) => user.id))
    const owners = await this.ownerNames(principal, page.data)
    const users = await serializePage(
      UserTransformer.transform(page.data, activity, owners).useVariant('withActivity'),
      page.nextCursor
    )
    const props = {
      users,
      current_user_id: auth.user!.id,
      can_manage: principal.can('submit'),
    }
    if (principal.kind === 'publisher') {
      return inertia.render('publisher/users', { ...props, publisher_id: principal.publisherId! })
    }
    return inertia.render('operator/users', { ...props, choices: await this.choices(principal) })
  }

  async store({ request, response, principal, bouncer, session }: HttpContext) {
    await bouncer.with('UserPolicy').authorize('create')
    const input = await request.validateUsing(createUserValidator)
    const user = await this.users.create(principal, input)
    session.flash('notice', {
      severity: 'success',
      summary: input.password ? 'User created' : `Invitation sent to ${user.email}`,
    })
    return response.redirect().back()
  }

  async update({ params, request, response, principal, bouncer, session }: HttpContext) {
    const user = await this.users.findVisible(principal, params.id)
    await bouncer.with('UserPolicy').authorize('update')
    const input = await request.validateUsing(updateUserValidator)
    await this.users.update(principal, user, input)
    const summary =
      input.disabled === true
        ? `Access revoked for ${user.email}`
        : input.disabled === false
          ? `Access restored for ${user.email}`
          : `${user.email} updated`
    session.flash('notice', { severity: 'success', summary })
    return response.redirect().back()
  }

  async resendInvitation({ params, response, principal, bouncer, session }: HttpContext) {
    const user = await this.users.findVisible(principal, params.id)
    await bouncer.with('UserPolicy').authorize('resendInvitation')
    const resent = await this.invitations.resend(principal, user)
    session.flash(
      'notice',
      resent.sent
        ? { severity: 'success', summary: `Invitation sent again to ${user.email}` }
        : {
            severity: 'warn',
            summary: 'A new invitation was made, but the e-mail could not be sent; try again.',
          }
    )
    return response.redirect().back()
  }

  /** Whose user each is, by name, for the users on this page. */
  protected async ownerNames(principal: Principal, users: User[]) {
    const publisherIds = users.map((user) => user.publisherId).filter((id) => id !== null)
    const buyerIds = users.map((user) => user.buyerId).filter((id) => id !== null)
    const labelIds = users.map((user) => user.labelId).filter((id) => id !== null)
    const [publishers, buyers, labels] = await Promise.all([
      publisherIds.length
        ? this.publishers.visibleTo(principal).whereIn('id', publisherIds)
        : Promise.resolve([]),
      buyerIds.length && principal.isOperator
        ? this.buyers.visibleTo(principal).whereIn('id', buyerIds)
        : Promise.resolve([]),
      // A label manager's label.
      labelIds.length && principal.isOperator
        ? this.labels.visibleTo(principal).whereIn('id', labelIds)
        : Promise.resolve([]),
    ])
    return new Map([...publishers, ...buyers, ...labels].map((owner) => [owner.id, owner.name]))
  }

  /**
   * What the operator's invite form offers: whose user it is, and a compliance officer's scope.
   * Past CHOICES, the newest are offered (the one being set up is usually among them), by name.
   */
  protected async choices(principal: Principal) {
    const [publishers, buyers, labels] = await Promise.all([
      this.publishers.visibleTo(principal).orderBy('created_at', 'desc').limit(CHOICES),
      this.buyers.visibleTo(principal).orderBy('created_at', 'desc').limit(CHOICES),
      this.labels.visibleTo(principal).orderBy('created_at', 'desc').limit(CHOICES),
    ])
    const byName = <Row extends { name: string }>(rows: Row[]) =>
      rows.sort((a, b) => a.name.localeCompare(b.name))
    return {
      publishers: byName(publishers.map(({ id, slug, name }) => ({ id, slug, name }))),
      buyers: byName(buyers.map(({ id, name }) => ({ id, name }))),
      labels: byName(labels.map(({ slug, name }) => ({ slug, name }))),
    }
  }
}
