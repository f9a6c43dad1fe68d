import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

// The dispute page is one for the three parties (its owner: the parties' money pages).

const uuid = router.matchers.uuid()

/** The operator's money (docs/money.md): settlement, disputes, payouts, a label's settlement rules. */
router
  .group(() => {
    router.get('settlement', [controllers.portal.MoneyOperator, 'overview']).as('settlement.index')
    router
      .get('settlement/:id', [controllers.portal.MoneyOperator, 'show'])
      .where('id', uuid)
      .as('settlement.show')
    router
      .post('settlement/:id/adjustments', [controllers.portal.MoneyOperator, 'adjust'])
      .where('id', uuid)
      .as('settlement.adjust')

    router.get('disputes', [controllers.portal.MoneyOperator, 'disputesIndex']).as('disputes.index')
    router
      .get('disputes/:id', [controllers.portal.Disputes, 'show'])
      .where('id', uuid)
      .as('disputes.show')
    router
      .post('disputes/:id/decision', [controllers.portal.DisputeDecisions, 'decide'])
      .where('id', uuid)
      .as('disputes.decide')

    router.get('payouts', [controllers.portal.Payouts, 'index']).as('payouts.index')
    router.post('payout-runs', [controllers.portal.Payouts, 'run']).as('payouts.run')
    router
      .get('payouts/:id', [controllers.portal.Payouts, 'show'])
      .where('id', uuid)
      .as('payouts.show')
    router
      .post('payouts/:id/mark-paid', [controllers.portal.Payouts, 'markPaid'])
      .where('id', uuid)
      .as('payouts.mark_paid')
    router
      .post('payouts/:id/mark-failed', [controllers.portal.Payouts, 'markFailed'])
      .where('id', uuid)
      .as('payouts.mark_failed')

    router
      .get('labels/:id/settlement-rules', [controllers.portal.MoneyOperator, 'rules'])
      .where('id', uuid)
      .as('settlement_rules.edit')
    router
      .put('labels/:id/settlement-rules', [controllers.portal.MoneyOperator, 'updateRules'])
      .where('id', uuid)
      .as('settlement_rules.update')
  })
  .prefix('/operator')
  .as('operator.money')
  .use(portalStack('operator'))
