import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SettlementController = () => import('#controllers/settlement_controller')
const SettlementPoliciesController = () => import('#controllers/settlement_policies_controller')

const uuid = router.matchers.uuid()

/** The "Money" section of the API: settlement, disputes, payouts, statements (docs/money.md). */
router
  .group(() => {
    router.get('settlement', [SettlementController, 'show']).as('settlement.show')
    router
      .get('labels/:id/settlement-policy', [SettlementPoliciesController, 'show'])
      .where('id', uuid)
      .as('settlement_policies.show')
    router
      .put('labels/:id/settlement-policy', [SettlementPoliciesController, 'update'])
      .where('id', uuid)
      .as('settlement_policies.update')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
