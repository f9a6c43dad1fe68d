import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()

/** The "Privacy and meta" section of the API (docs/privacy.md). */
router
  .group(() => {
    router.get('meta', [controllers.Meta, 'show']).as('meta.show')
    router.get('meta/ip-ranges', [controllers.Meta, 'ipRanges']).as('meta.ip_ranges')

    router
      .group(() => {
        router
          .post('privacy/requests', [controllers.PrivacyRequests, 'store'])
          .as('privacy_requests.store')
        router
          .get('privacy/requests/:id', [controllers.PrivacyRequests, 'show'])
          .where('id', uuid)
          .as('privacy_requests.show')
        router
          .post('leads/:id/consent/withdraw', [controllers.ConsentWithdrawals, 'store'])
          .where('id', uuid)
          .as('consent_withdrawals.store')
        router
          .get('labels/:id/retention', [controllers.RetentionPolicies, 'show'])
          .where('id', uuid)
          .as('retention_policies.show')
        router
          .put('labels/:id/retention', [controllers.RetentionPolicies, 'update'])
          .where('id', uuid)
          .as('retention_policies.update')
      })
      .use([middleware.apiKey(), middleware.rateLimit()])
  })
  .prefix('/v1')
  .as('v1')
