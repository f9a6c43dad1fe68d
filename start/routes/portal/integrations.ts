import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import type { PrincipalKind } from '#auth/principal'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The pages every portal with integrations shares; the services decide what each role sees. */
function keysAndWebhooks() {
  router.get('keys', [controllers.portal.ApiKeys, 'index']).as('keys.index')
  router.post('keys', [controllers.portal.ApiKeys, 'store']).as('keys.store')
  router
    .delete('keys/:id', [controllers.portal.ApiKeys, 'destroy'])
    .where('id', uuid)
    .as('keys.destroy')

  router.get('webhooks', [controllers.portal.WebhookEndpoints, 'index']).as('webhooks.index')
  router.post('webhooks', [controllers.portal.WebhookEndpoints, 'store']).as('webhooks.store')
  router
    .get('webhooks/:id', [controllers.portal.WebhookEndpoints, 'show'])
    .where('id', uuid)
    .as('webhooks.show')
  router
    .patch('webhooks/:id', [controllers.portal.WebhookEndpoints, 'update'])
    .where('id', uuid)
    .as('webhooks.update')
  router
    .delete('webhooks/:id', [controllers.portal.WebhookEndpoints, 'destroy'])
    .where('id', uuid)
    .as('webhooks.destroy')
  router
    .post('webhooks/:id/rotate-secret', [controllers.portal.WebhookEndpoints, 'rotateSecret'])
    .where('id', uuid)
    .as('webhooks.rotate_secret')
  router
    .post('webhooks/:id/recover', [controllers.portal.WebhookEndpoints, 'recover'])
    .where('id', uuid)
    .as('webhooks.recover')
  router
    .post('webhooks/:id/deliveries/:delivery_id/retry', [
      controllers.portal.WebhookEndpoints,
      'retry',
    ])
    .where('id', uuid)
    .where('delivery_id', uuid)
    .as('webhooks.deliveries.retry')
  router
    .post('webhooks/:id/events/:event_id/replay', [controllers.portal.WebhookEndpoints, 'replay'])
    .where('id', uuid)
    .where('event_id', uuid)
    .as('webhooks.events.replay')
}

/** API keys, OAuth clients and webhook endpoints, in every portal that has them. */
router
  .group(() => {
    keysAndWebhooks()
    router
      .post('oauth-clients', [controllers.portal.OauthClients, 'store'])
      .as('oauth_clients.store')
    router
      .delete('oauth-clients/:id', [controllers.portal.OauthClients, 'destroy'])
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
