import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The publisher portal: every page under /publisher. */
router
  .group(() => {
    // Home: the onboarding wizard until the operator sets the publisher live, then its monitor.
    router.get('/', [controllers.portal.PublisherHome, 'show']).as('home')
    router
      .post('delivery-method', [controllers.portal.PublisherHome, 'chooseDeliveryMethod'])
      .as('delivery_method.update')
    router
      .post('quality-rules/confirm', [controllers.portal.PublisherHome, 'confirmRules'])
      .as('quality_rules.confirm')
    router
      .post('sandbox-key', [controllers.portal.PublisherHome, 'createSandboxKey'])
      .as('sandbox_key.store')
    router
      .post('test-lead', [controllers.portal.PublisherHome, 'sendTestLead'])
      .as('test_lead.store')
    router
      .post('go-live-request', [controllers.portal.PublisherHome, 'requestGoLive'])
      .as('go_live_request.store')

    router.get('users', [controllers.portal.Users, 'index']).as('users.index')
    router.post('users', [controllers.portal.Users, 'store']).as('users.store')
    router
      .patch('users/:id', [controllers.portal.Users, 'update'])
      .where('id', uuid)
      .as('users.update')
    router
      .post('users/:id/invitation', [controllers.portal.Users, 'resendInvitation'])
      .where('id', uuid)
      .as('users.invitation')

    router.get('posting-spec', [controllers.portal.PostingSpec, 'show']).as('posting_spec.show')

    router.get('access-log', [controllers.portal.AccessLog, 'index']).as('access_log.index')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))
