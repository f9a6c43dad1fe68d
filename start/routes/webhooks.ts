import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()

/** The "Webhooks" section of the API: endpoints, the delivery log, and everything that sends again. */
router
  .group(() => {
    router
      .post('webhook-endpoints', [controllers.WebhookEndpoints, 'store'])
      .as('webhook_endpoints.store')
    router
      .get('webhook-endpoints', [controllers.WebhookEndpoints, 'index'])
      .as('webhook_endpoints.index')
    router
      .get('webhook-endpoints/:id', [controllers.WebhookEndpoints, 'show'])
      .where('id', uuid)
      .as('webhook_endpoints.show')
    router
      .patch('webhook-endpoints/:id', [controllers.WebhookEndpoints, 'update'])
      .where('id', uuid)
      .as('webhook_endpoints.update')
    router
      .delete('webhook-endpoints/:id', [controllers.WebhookEndpoints, 'destroy'])
      .where('id', uuid)
      .as('webhook_endpoints.destroy')
    router
      .post('webhook-endpoints/:id/rotate-secret', [controllers.WebhookEndpoints, 'rotateSecret'])
      .where('id', uuid)
      .as('webhook_endpoints.rotate_secret')
    router
      .get('webhook-endpoints/:id/deliveries', [controllers.WebhookDeliveries, 'forEndpoint'])
      .where('id', uuid)
      .as('webhook_endpoints.deliveries')
    router
      .post('webhook-endpoints/:id/recover', [controllers.WebhookRecoveries, 'store'])
      .where('id', uuid)
      .as('webhook_endpoints.recover')

    router
      .get('webhook-deliveries', [controllers.WebhookDeliveries, 'index'])
      .as('webhook_deliveries.index')
    router
      .post('webhook-deliveries/retry', [controllers.WebhookDeliveries, 'bulkRetry'])
      .as('webhook_deliveries.bulk_retry')
    router
      .get('webhook-deliveries/:id', [controllers.WebhookDeliveries, 'show'])
      .where('id', uuid)
      .as('webhook_deliveries.show')
    router
      .post('webhook-deliveries/:id/retry', [controllers.WebhookDeliveries, 'retry'])
      .where('id', uuid)
      .as('webhook_deliveries.retry')

    router
      .get('webhook-recoveries/:id', [controllers.WebhookRecoveries, 'show'])
      .where('id', uuid)
      .as('webhook_recoveries.show')
    router
      .post('events/:event_id/replay', [controllers.Events, 'replay'])
      .where('event_id', uuid)
      .as('events.replay')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
