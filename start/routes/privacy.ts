import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const MetaController = () => import('#controllers/meta_controller')
const PrivacyRequestsController = () => import('#controllers/privacy_requests_controller')
const ConsentWithdrawalsController = () => import('#controllers/consent_withdrawals_controller')
const RetentionPoliciesController = () => import('#controllers/retention_policies_controller')

const uuid = router.matchers.uuid()

/** The "Privacy and meta" section of the API (docs/privacy.md). */
router
  .group(() => {
    router.get('meta', [MetaController, 'show']).as('meta.show')
    router.get('meta/ip-ranges', [MetaController, 'ipRanges']).as('meta.ip_ranges')

    router
      .group(() => {
        router
          .post('privacy/requests', [PrivacyRequestsController, 'store'])
          .as('privacy_requests.store')
        router
          .get('privacy/requests/:id', [PrivacyRequestsController, 'show'])
          .where('id', uuid)
          .as('privacy_requests.show')
        router
          .post('leads/:id/consent/withdraw', [ConsentWithdrawalsController, 'store'])
          .where('id', uuid)
          .as('consent_withdrawals.store')
        router
          .get('labels/:id/retention', [RetentionPoliciesController, 'show'])
          .where('id', uuid)
          .as('retention_policies.show')
        router
          .put('labels/:id/retention', [RetentionPoliciesController, 'update'])
          .where('id', uuid)
          .as('retention_policies.update')
      })
      .use([middleware.apiKey(), middleware.rateLimit()])
  })
  .prefix('/v1')
  .as('v1')
