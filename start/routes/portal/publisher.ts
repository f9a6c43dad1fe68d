import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PublisherHomeController = () => import('#controllers/portal/publisher_home_controller')
const PortalUsersController = () => import('#controllers/portal/users_controller')
const PortalAccessLogController = () => import('#controllers/portal/access_log_controller')

const uuid = router.matchers.uuid()

/** The publisher portal: every page under /publisher. */
router
  .group(() => {
    // Home: the onboarding wizard until the operator sets the publisher live, then its monitor.
    router.get('/', [PublisherHomeController, 'show']).as('home')
    router
      .post('delivery-method', [PublisherHomeController, 'chooseDeliveryMethod'])
      .as('delivery_method.update')
    router
      .post('quality-rules/confirm', [PublisherHomeController, 'confirmRules'])
      .as('quality_rules.confirm')
    router
      .post('sandbox-key', [PublisherHomeController, 'createSandboxKey'])
      .as('sandbox_key.store')
    router.post('test-lead', [PublisherHomeController, 'sendTestLead']).as('test_lead.store')
    router
      .post('go-live-request', [PublisherHomeController, 'requestGoLive'])
      .as('go_live_request.store')

    router.get('users', [PortalUsersController, 'index']).as('users.index')
    router.post('users', [PortalUsersController, 'store']).as('users.store')
    router
      .patch('users/:id', [PortalUsersController, 'update'])
      .where('id', uuid)
      .as('users.update')
    router
      .post('users/:id/invitation', [PortalUsersController, 'resendInvitation'])
      .where('id', uuid)
      .as('users.invitation')

    router.get('access-log', [PortalAccessLogController, 'index']).as('access_log.index')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))
