import router from '@adonisjs/core/services/router'
import type { PrincipalKind } from '#auth/principal'
import { portalStack } from '#start/routes/portal/stacks'

const ApiKeysController = () => import('#controllers/portal/api_keys_controller')
const OauthClientsController = () => import('#controllers/portal/oauth_clients_controller')
const WebhookEndpointsController = () => import('#controllers/portal/webhook_endpoints_controller')

const uuid = router.matchers.uuid()

/** The pages every portal with integrations shares; the services decide what each role sees. */
function keysAndWebhooks() {
  router.get('keys', [ApiKeysController, 'index']).as('keys.index')
  router.post('keys', [ApiKeysController, 'store']).as('keys.store')
  router.delete('keys/:id', [ApiKeysController, 'destroy']).where('id', uuid).as('keys.destroy')

  router.get('webhooks', [WebhookEndpointsController, 'index']).as('webhooks.index')
  router.post('webhooks', [WebhookEndpointsController, 'store']).as('webhooks.store')
  router
    .get('webhooks/:id', [WebhookEndpointsController, 'show'])
    .where('id', uuid)
    .as('webhooks.show')
  router
    .patch('webhooks/:id', [WebhookEndpointsController, 'update'])
    .where('id', uuid)
    .as('webhooks.update')
  router
    .delete('webhooks/:id', [WebhookEndpointsController, 'destroy'])
    .where('id', uuid)
    .as('webhooks.destroy')
  router
    .post('webhooks/:id/rotate-secret', [WebhookEndpointsController, 'rotateSecret'])
    .where('id', uuid)
    .as('webhooks.rotate_secret')
  router
    .post('webhooks/:id/recover', [WebhookEndpointsController, 'recover'])
    .where('id', uuid)
    .as('webhooks.recover')
  router
    .post('webhooks/:id/deliveries/:delivery_id/retry', [WebhookEndpointsController, 'retry'])
    .where('id', uuid)
    .where('delivery_id', uuid)
    .as('webhooks.deliveries.retry')
  router
    .post('webhooks/:id/events/:event_id/replay', [WebhookEndpointsController, 'replay'])
    .where('id', uuid)
    .where('event_id', uuid)
    .as('webhooks.events.replay')
}

/** API keys, OAuth clients and webhook endpoints, in every portal that has them. */
router
  .group(() => {
    keysAndWebhooks()
    router.post('oauth-clients', [OauthClientsController, 'store']).as('oauth_clients.store')
    router
      .delete('oauth-clients/:id', [OauthClientsController, 'destroy'])
      .where('id', uuid)
      .as('oauth_clients.destroy')
  })
  .prefix('/operator')
  .as('operator.integrations')
  .use(portalStack('operator'))

for (const role of ['publisher', 'buyer'] satisfies PrincipalKind[]) {
  router
    .group(() => keysAndWebhooks())
    .prefix(`/${role}`)
    .as(`${role}.integrations`)
    .use(portalStack(role))
}
