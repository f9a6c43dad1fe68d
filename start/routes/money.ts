import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SettlementController = () => import('#controllers/settlement_controller')
const SettlementPoliciesController = () => import('#controllers/settlement_policies_controller')
const LedgerAdjustmentsController = () => import('#controllers/ledger_adjustments_controller')
const PayoutsController = () => import('#controllers/payouts_controller')
const PayoutRunsController = () => import('#controllers/payout_runs_controller')
const BuyerStatementsController = () => import('#controllers/buyer_statements_controller')
const DisputesController = () => import('#controllers/disputes_controller')

const uuid = router.matchers.uuid()

/** The "Money" section of the API: settlement, disputes, payouts, statements (docs/money.md). */
router
  .group(() => {
    router.get('settlement', [SettlementController, 'show']).as('settlement.show')
    router
      .post('ledger/adjustments', [LedgerAdjustmentsController, 'store'])
      .as('ledger_adjustments.store')
    router
      .get('labels/:id/settlement-policy', [SettlementPoliciesController, 'show'])
      .where('id', uuid)
      .as('settlement_policies.show')
    router
      .put('labels/:id/settlement-policy', [SettlementPoliciesController, 'update'])
      .where('id', uuid)
      .as('settlement_policies.update')
    router.post('payout-runs', [PayoutRunsController, 'store']).as('payout_runs.store')
    router.get('payouts', [PayoutsController, 'index']).as('payouts.index')
    router.get('payouts/:id', [PayoutsController, 'show']).where('id', uuid).as('payouts.show')
    router
      .post('payouts/:id/mark-paid', [PayoutsController, 'markPaid'])
      .where('id', uuid)
      .as('payouts.mark_paid')
    router
      .post('payouts/:id/mark-failed', [PayoutsController, 'markFailed'])
      .where('id', uuid)
      .as('payouts.mark_failed')
    router
      .get('buyers/:id/statement', [BuyerStatementsController, 'show'])
      .where('id', uuid)
      .as('buyer_statements.show')
    router
      .post('leads/:id/disputes', [DisputesController, 'store'])
      .where('id', uuid)
      .as('disputes.store')
    router.get('disputes', [DisputesController, 'index']).as('disputes.index')
    router.get('disputes/:id', [DisputesController, 'show']).where('id', uuid).as('disputes.show')
    router
      .post('disputes/:id/responses', [DisputesController, 'respond'])
      .where('id', uuid)
      .as('disputes.respond')
    router
      .post('disputes/:id/decision', [DisputesController, 'decide'])
      .where('id', uuid)
      .as('disputes.decide')
    router
      .post('disputes/:id/withdraw', [DisputesController, 'withdraw'])
      .where('id', uuid)
      .as('disputes.withdraw')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
