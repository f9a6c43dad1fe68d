import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { OwnerType } from '#models/mixins/with_owner_scope'
import ApiProblem from '#exceptions/api_problem'
import WebhookEndpointService from '#services/webhooks/endpoint_service'
import WebhookDeliveryService from '#services/webhooks/delivery_service'
import {
  EVENT_DATA_SCHEMAS,
  EVENT_DATA_SCHEMA_OF,
  EVENT_TYPES,
} from '#services/webhooks/event_schemas'
import { subscribableBy } from '#services/webhooks/subscription'
import { ownerDirectory, ownerNameOf } from '#services/catalogue/owner_directory'
import { paginate } from '#services/sql/cursor_pagination'
import OwnerDirectoryTransformer from '#transformers/owner_directory_transformer'
import WebhookDeliveryTransformer from '#transformers/webhook_delivery_transformer'
import WebhookEndpointTransformer from '#transformers/webhook_endpoint_transformer'
import { pageValidator } from '#validators/pagination'
import {
  createWebhookEndpointValidator,
  endpointDeliveriesValidator,
  recoverValidator,
  updateWebhookEndpointValidator,
} from '#validators/webhook_endpoint'

/**
 * `/<role>/webhooks`: the portal's face of /v1/webhook-endpoints, its
 * delivery log, retry, replay and recovery. Same validators, policy,
 * services and JSON as the API; a signing secret is shown once, through
 * the session's flash.
 */
/** When each event is sent, in the words of its schema: the event pickers' descriptions. */
const EVENT_DESCRIPTIONS = Object.fromEntries(
  EVENT_TYPES.map((type) => [
    type,
    String(EVENT_DATA_SCHEMAS[EVENT_DATA_SCHEMA_OF[type]].description ?? ''),
  ])
)

@inject()
export default class WebhookEndpointsController {
  constructor(
    protected endpoints: WebhookEndpointService,
    protected deliveries: WebhookDeliveryService
  ) {}

  async index({ inertia, request, principal, bouncer, serializePage }: HttpContext) {
    const policy = bouncer.with('WebhookEndpointPolicy')
    await policy.authorize('viewList')
    // A hand-edited address falls back to the first page instead of failing the page.
    const [invalid, page] = await pageValidator.tryValidate(request.qs())
    const [endpoints, owners, manage] = await Promise.all([
      paginate(this.endpoints.visibleTo(principal), invalid ? {} : page),
      ownerDirectory(principal),
      policy.allows('create'),
    ])
    // What each owner the caller may create for can subscribe to.
    const ownerTypes: OwnerType[] = principal.isOperator
      ? ['operator', 'publisher', 'buyer']
      : [principal.kind as OwnerType]
    return inertia.render('integrations/webhooks', {
      base: `/${principal.kind}`,
      endpoints: await serializePage(
        WebhookEndpointTransformer.transform(endpoints.data),
        endpoints.nextCursor
      ),
      owners: OwnerDirectoryTransformer.transform(owners),
      subscribable: Object.fromEntries(ownerTypes.map((type) => [type, subscribableBy(type)])),
      eventDescriptions: EVENT_DESCRIPTIONS,
      canManage: manage,
      queryInvalid: Boolean(invalid),
    })
  }

  async store({ request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('create')
    const input = await request.validateUsing(createWebhookEndpointValidator)
    const { endpoint, secret } = await this.endpoints.create(principal, input)
    session.flash('secret', { label: `Signing secret of ${endpoint.url}`, value: secret })
    session.flash('notice', { severity: 'success', summary: 'Webhook endpoint added' })
    return response.redirect(`/${principal.kind}/webhooks/${endpoint.id}`)
  }

  /** One endpoint: its health, settings and delivery log. */
  async show({ inertia, params, request, principal, bouncer, serializePage }: HttpContext) {
    const policy = bouncer.with('WebhookEndpointPolicy')
    await policy.authorize('view')
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const [invalid, filters] = await endpointDeliveriesValidator.tryValidate(request.qs())
    const [deliveries, ownerName, manage, resend] = await Promise.all([
      this.deliveries.list(principal, { ...(invalid ? {} : filters), endpoint_id: endpoint.id }),
      ownerNameOf(principal, endpoint),
      policy.allows('update'),
      policy.allows('resend'),
    ])
    return inertia.render('integrations/webhook', {
      base: `/${principal.kind}`,
      endpoint: WebhookEndpointTransformer.transform(endpoint, ownerName).useVariant(
        'withOwnerName'
      ),
      deliveries: await serializePage(
        WebhookDeliveryTransformer.transform(deliveries.data),
        deliveries.nextCursor
      ),
      subscribable: subscribableBy(endpoint.ownerType),
      eventDescriptions: EVENT_DESCRIPTIONS,
      canManage: manage,
      canResend: resend,
      queryInvalid: Boolean(invalid),
    })
  }

  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('update')
    const patch = await request.validateUsing(updateWebhookEndpointValidator)
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const updated = await this.endpoints.update(principal, endpoint, patch)
    const summary =
      Object.keys(patch).length === 1 && patch.status
        ? `Endpoint ${updated.status}`
        : 'Endpoint saved'
    session.flash('notice', { severity: 'success', summary })
    return response.redirect(`/${principal.kind}/webhooks/${endpoint.id}`)
  }

  async destroy({ params, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('delete')
    await this.endpoints.delete(principal, await this.endpoints.findVisible(principal, params.id))
    session.flash('notice', { severity: 'success', summary: 'Webhook endpoint deleted' })
    return response.redirect(`/${principal.kind}/webhooks`)
  }

  async rotateSecret({ params, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('update')
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const { secret, previousSecretExpiresAt } = await this.endpoints.rotateSecret(
      principal,
      endpoint
    )
    session.flash('secret', { label: `New signing secret of ${endpoint.url}`, value: secret })
    session.flash('notice', {
      severity: 'success',
      summary: `Secret rotated: the old secret signs too until ${previousSecretExpiresAt.toFormat("yyyy-LL-dd HH:mm 'UTC'")}`,
    })
    return response.redirect(`/${principal.kind}/webhooks/${endpoint.id}`)
  }

  /** Resends one delivery of this endpoint now. */
  async retry({ params, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const delivery = await this.deliveries.findVisible(principal, params.delivery_id)
    if (delivery.endpointId !== endpoint.id) throw ApiProblem.notFound('webhook delivery')
    await this.deliveries.retry(delivery)
    session.flash('notice', { severity: 'success', summary: 'Delivery queued to send again' })
    return response.redirect().back()
  }

  /** Sends one event again to every endpoint of the caller subscribed to it. */
  async replay({ params, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    await this.endpoints.findVisible(principal, params.id)
    const { deliveries } = await this.deliveries.replay(principal, params.event_id)
    session.flash('notice', {
      severity: deliveries > 0 ? 'success' : 'info',
      summary:
        deliveries === 1
          ? 'Event replayed to 1 endpoint'
          : `Event replayed to ${deliveries} endpoints`,
    })
    return response.redirect().back()
  }

  /** Queues the recovery of this endpoint's failed deliveries over a window. */
  async recover({ params, request, response, session, principal, bouncer }: HttpContext) {
    await bouncer.with('WebhookEndpointPolicy').authorize('resend')
    // Another owner's endpoint is not there (404) before its form is read.
    const endpoint = await this.endpoints.findVisible(principal, params.id)
    const { since, until } = await request.validateUsing(recoverValidator)
    await this.deliveries.recover(principal, endpoint, since, until)
    session.flash('notice', {
      severity: 'success',
      summary: 'Recovery queued: failed deliveries of that window will be sent again',
    })
    return response.redirect(`/${principal.kind}/webhooks/${endpoint.id}`)
  }
}
