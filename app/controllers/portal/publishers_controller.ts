import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Principal from '#auth/principal'
import PublisherService from '#services/catalogue/publisher_service'
import LabelService from '#services/catalogue/label_service'
import InvitationService from '#services/access/invitation_service'
import { countsByPublisher } from '#services/leads/lead_counts'
import {
  createPublisherValidator,
  listPublishersValidator,
  updatePublisherValidator,
} from '#validators/publisher'
import PublisherTransformer from '#transformers/publisher_transformer'
import LabelTransformer from '#transformers/label_transformer'

/**
 * The operator's publishers: the validators, services and JSON of
 * /v1/publishers, with each publisher's lead figures of the day beside it.
 */
@inject()
export default class PublishersController {
  constructor(
    protected publishers: PublisherService,
    protected labels: LabelService,
    protected invitations: InvitationService
  ) {}

  async index({ request, inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('viewList')
    const filters = await request.validateUsing(listPublishersValidator)
    const [page, labels] = await Promise.all([
      this.publishers.list(principal, filters),
      this.labelChoices(principal),
    ])
    const counts = await countsByPublisher(page.data.map((publisher) => publisher.id))
    return inertia.render('operator/publishers/index', {
      publishers: PublisherTransformer.transform(page.data, counts).useVariant('withFigures'),
      next_cursor: page.nextCursor,
      labels,
    })
  }

  async create({ inertia, principal, bouncer }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('create')
    return inertia.render('operator/publishers/new', {
      labels: await this.labelChoices(principal),
    })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('PublisherPolicy').authorize('create')
    const input = await request.validateUsing(createPublisherValidator)
    const publisher = await this.publishers.create(principal, input)
    session.flash('notice', {
      severity: 'success',
      summary: `Invitation sent to ${publisher.contactEmail}`,
    })
    return response.redirect().toRoute('operator.publishers.show', { id: publisher.id })
  }

  async show({ params, inertia, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('view', publisher)
    const counts = await countsByPublisher([publisher.id])
    return inertia.render('operator/publishers/show', {
      publisher: PublisherTransformer.transform(publisher, counts).useVariant('withFigures'),
    })
  }

  /** Pause and go live: PATCH /v1/publishers/{id}'s validator, policy and service method. */
  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    const input = await request.validateUsing(updatePublisherValidator)
    const changes = Object.keys(input).filter(
      (field) => input[field as keyof typeof input] !== undefined
    )
    await bouncer.with('PublisherPolicy').authorize('update', publisher, changes)
    const before = publisher.status
    await this.publishers.update(principal, publisher, input)
    const summary =
      publisher.status === before
        ? `${publisher.name} saved`
        : publisher.status === 'live'
          ? `${publisher.name} is live`
          : `${publisher.name} paused: its live leads are refused until it goes live again`
    session.flash('notice', { severity: 'success', summary })
    return response.redirect().toRoute('operator.publishers.show', { id: publisher.id })
  }

  /** POST /v1/publishers/{id}/invitation's service method: a new link, the old one void. */
  async resendInvitation({ params, response, session, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('PublisherPolicy').authorize('resendInvitation')
    const { sent } = await this.invitations.resend(principal, publisher)
    session.flash(
      'notice',
      sent
        ? { severity: 'success', summary: `Invitation sent again to ${publisher.contactEmail}` }
        : {
            severity: 'warn',
            summary: `A new invitation was made, but the e-mail to ${publisher.contactEmail} could not be sent; try again later.`,
          }
    )
    return response.redirect().toRoute('operator.publishers.show', { id: publisher.id })
  }

  /** Every label, by name, for the invite form's choice and the list's filter. */
  protected async labelChoices(principal: Principal) {
    const labels = await this.labels.visibleTo(principal).orderBy('name').orderBy('id')
    return LabelTransformer.transform(labels).useVariant('toChoice')
  }
}
