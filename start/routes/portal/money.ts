import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const MoneyController = () => import('#controllers/portal/money_controller')
const DisputesController = () => import('#controllers/portal/disputes_controller')

const uuid = router.matchers.uuid()

/** A publisher's money: its settlement, payouts and sales, and the disputes about its leads. */
router
  .group(() => {
    router.get('settlement', [MoneyController, 'settlement']).as('settlement.show')
    router.get('settlement/sales.csv', [MoneyController, 'salesCsv']).as('settlement.sales')
    router.get('payouts/:id', [MoneyController, 'payout']).where('id', uuid).as('payouts.show')
    router.get('disputes', [DisputesController, 'index']).as('disputes.index')
    router.get('disputes/:id', [DisputesController, 'show']).where('id', uuid).as('disputes.show')
    router
      .post('disputes/:id/responses', [DisputesController, 'respond'])
      .where('id', uuid)
      .as('disputes.respond')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))

/** A buyer's returns (from a lead's page), its disputes and its statement. */
router
  .group(() => {
    router
      .get('leads/:id/return-window', [MoneyController, 'returnWindow'])
      .where('id', uuid)
      .as('leads.return_window')
    router
      .post('leads/:id/disputes', [DisputesController, 'store'])
      .where('id', uuid)
      .as('disputes.store')
    router.get('disputes', [DisputesController, 'index']).as('disputes.index')
    router.get('disputes/:id', [DisputesController, 'show']).where('id', uuid).as('disputes.show')
    router
      .post('disputes/:id/withdraw', [DisputesController, 'withdraw'])
      .where('id', uuid)
      .as('disputes.withdraw')
    router.get('statement', [MoneyController, 'statement']).as('statement.show')
    router.get('statement/download', [MoneyController, 'statementCsv']).as('statement.download')
  })
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
