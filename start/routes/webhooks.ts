import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const WebhookEndpointsController = () => import('#controllers/webhook_endpoints_controller')
const WebhookDeliveriesController = () => import('#controllers/webhook_deliveries_controller')
const WebhookRecoveriesController = () => import('#controllers/webhook_recoveries_controller')
const EventsController = () => import('#controllers/events_controller')

const uuid = router.matchers.uuid()

/** The "Webhooks" section of the API: endpoints, the delivery log, and everything that sends again. */
router
  .group(() => {
    router
      .post('webhook-endpoints', [WebhookEndpointsController, 'store'])
      .as('webhook_endpoints.store')
    router
      .get('webhook-endpoints', [WebhookEndpointsController, 'index'])
      .as('webhook_endpoints.index')
    router
      .get('webhook-endpoints/:id', [WebhookEndpointsController, 'show'])
      .where('id', uuid)
      .as('webhook_endpoints.show')
    router
      .patch('webhook-endpoints/:id', [WebhookEndpointsController, 'update'])
      .where('id', uuid)
      .as('webhook_endpoints.update')
    router
      .delete('webhook-endpoints/:id', [WebhookEndpointsController, 'destroy'])
      .where('id', uuid)
      .as('webhook_endpoints.destroy')
    router
      .post('webhook-endpoints/:id/rotate-secret', [WebhookEndpointsController, 'rotateSecret'])
      .where('id', uuid)
      .as('webhook_endpoints.rotate_secret')
    router
      .get('webhook-endpoints/:id/deliveries', [WebhookDeliveriesController, 'forEndpoint'])
      .where('id', uuid)
      .as('webhook_endpoints.deliveries')
    router
      .post('webhook-endpoints/:id/recover', [WebhookRecoveriesController, 'store'])
      .where('id', uuid)
      .as('webhook_endpoints.recover')

    router
      .get('webhook-deliveries', [WebhookDeliveriesController, 'index'])
      .as('webhook_deliveries.index')
    router
      .post('webhook-deliveries/retry', [WebhookDeliveriesController, 'bulkRetry'])
      .as('webhook_deliveries.bulk_retry')
    router
      .get('webhook-deliveries/:id', [WebhookDeliveriesController, 'show'])
      .where('id', uuid)
      .as('webhook_deliveries.show')
    router
      .post('webhook-deliveries/:id/retry', [WebhookDeliveriesController, 'retry'])
      .where('id', uuid)
      .as('webhook_deliveries.retry')

    router
      .get('webhook-recoveries/:id', [WebhookRecoveriesController, 'show'])
      .where('id', uuid)
      .as('webhook_recoveries.show')
    router
      .post('events/:event_id/replay', [EventsController, 'replay'])
      .where('event_id', uuid)
      .as('events.replay')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
