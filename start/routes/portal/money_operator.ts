import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const MoneyOperatorController = () => import('#controllers/portal/money_operator_controller')
const DisputeDecisionsController = () => import('#controllers/portal/dispute_decisions_controller')
const PortalPayoutsController = () => import('#controllers/portal/payouts_controller')
// The dispute page is one for the three parties (its owner: the parties' money pages).
const DisputesController = () => import('#controllers/portal/disputes_controller')

const uuid = router.matchers.uuid()

/** The operator's money (docs/money.md): settlement, disputes, payouts, a label's settlement rules. */
router
  .group(() => {
    router.get('settlement', [MoneyOperatorController, 'overview']).as('settlement.index')
    router
      .get('settlement/:id', [MoneyOperatorController, 'show'])
      .where('id', uuid)
      .as('settlement.show')
    router
      .post('settlement/:id/adjustments', [MoneyOperatorController, 'adjust'])
      .where('id', uuid)
      .as('settlement.adjust')

    router.get('disputes', [MoneyOperatorController, 'disputesIndex']).as('disputes.index')
    router.get('disputes/:id', [DisputesController, 'show']).where('id', uuid).as('disputes.show')
    router
      .post('disputes/:id/decision', [DisputeDecisionsController, 'decide'])
      .where('id', uuid)
      .as('disputes.decide')

    router.get('payouts', [PortalPayoutsController, 'index']).as('payouts.index')
    router.post('payout-runs', [PortalPayoutsController, 'run']).as('payouts.run')
    router
      .get('payouts/:id', [PortalPayoutsController, 'show'])
      .where('id', uuid)
      .as('payouts.show')
    router
      .post('payouts/:id/mark-paid', [PortalPayoutsController, 'markPaid'])
      .where('id', uuid)
      .as('payouts.mark_paid')
    router
      .post('payouts/:id/mark-failed', [PortalPayoutsController, 'markFailed'])
      .where('id', uuid)
      .as('payouts.mark_failed')

    router
      .get('labels/:id/settlement-rules', [MoneyOperatorController, 'rules'])
      .where('id', uuid)
      .as('settlement_rules.edit')
    router
      .put('labels/:id/settlement-rules', [MoneyOperatorController, 'updateRules'])
      .where('id', uuid)
      .as('settlement_rules.update')
  })
  .prefix('/operator')
  .as('operator.money')
  .use(portalStack('operator'))
