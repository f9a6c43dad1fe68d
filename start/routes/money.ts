import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()

/** The "Money" section of the API: settlement, disputes, payouts, statements (docs/money.md). */
router
  .group(() => {
    router.get('settlement', [controllers.Settlement, 'show']).as('settlement.show')
    router
      .post('ledger/adjustments', [controllers.LedgerAdjustments, 'store'])
      .as('ledger_adjustments.store')
    router
      .get('labels/:id/settlement-policy', [controllers.SettlementPolicies, 'show'])
      .where('id', uuid)
      .as('settlement_policies.show')
    router
      .put('labels/:id/settlement-policy', [controllers.SettlementPolicies, 'update'])
      .where('id', uuid)
      .as('settlement_policies.update')
    router.post('payout-runs', [controllers.PayoutRuns, 'store']).as('payout_runs.store')
    router.get('payouts', [controllers.Payouts, 'index']).as('payouts.index')
    router.get('payouts/:id', [controllers.Payouts, 'show']).where('id', uuid).as('payouts.show')
    router
      .post('payouts/:id/mark-paid', [controllers.Payouts, 'markPaid'])
      .where('id', uuid)
      .as('payouts.mark_paid')
    router
      .post('payouts/:id/mark-failed', [controllers.Payouts, 'markFailed'])
      .where('id', uuid)
      .as('payouts.mark_failed')
    router
      .get('buyers/:id/statement', [controllers.BuyerStatements, 'show'])
      .where('id', uuid)
      .as('buyer_statements.show')
    router
      .get('buyers/:id/funds', [controllers.BuyerFunds, 'show'])
      .where('id', uuid)
      .as('buyer_funds.show')
    router
      .post('buyers/:id/funds/top-ups', [controllers.BuyerFunds, 'topUp'])
      .where('id', uuid)
      .as('buyer_funds.top_up')
    router
      .post('leads/:id/disputes', [controllers.Disputes, 'store'])
      .where('id', uuid)
      .as('disputes.store')
    router.get('disputes', [controllers.Disputes, 'index']).as('disputes.index')
    router.get('disputes/:id', [controllers.Disputes, 'show']).where('id', uuid).as('disputes.show')
    router
      .post('disputes/:id/responses', [controllers.Disputes, 'respond'])
      .where('id', uuid)
      .as('disputes.respond')
    router
      .post('disputes/:id/decision', [controllers.Disputes, 'decide'])
      .where('id', uuid)
      .as('disputes.decide')
    router
      .post('disputes/:id/withdraw', [controllers.Disputes, 'withdraw'])
      .where('id', uuid)
      .as('disputes.withdraw')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
