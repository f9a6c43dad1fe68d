import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** A publisher's money: its settlement, payouts and sales, and the disputes about its leads. */
router
  .group(() => {
    router.get('settlement', [controllers.portal.Money, 'settlement']).as('settlement.show')
    router
      .get('settlement/sales.csv', [controllers.portal.Money, 'salesCsv'])
      .as('settlement.sales')
    router
      .get('payouts/:id', [controllers.portal.Money, 'payout'])
      .where('id', uuid)
      .as('payouts.show')
    router.get('disputes', [controllers.portal.Disputes, 'index']).as('disputes.index')
    router
      .get('disputes/:id', [controllers.portal.Disputes, 'show'])
      .where('id', uuid)
      .as('disputes.show')
    router
      .post('disputes/:id/responses', [controllers.portal.Disputes, 'respond'])
      .where('id', uuid)
      .as('disputes.respond')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))

/** A buyer's returns (from a lead's page), its disputes, its funds and its statement. */
router
  .group(() => {
    router
      .get('leads/:id/return-window', [controllers.portal.Money, 'returnWindow'])
      .where('id', uuid)
      .as('leads.return_window')
    router
      .post('leads/:id/disputes', [controllers.portal.Disputes, 'store'])
      .where('id', uuid)
      .as('disputes.store')
    router.get('disputes', [controllers.portal.Disputes, 'index']).as('disputes.index')
    router
      .get('disputes/:id', [controllers.portal.Disputes, 'show'])
      .where('id', uuid)
      .as('disputes.show')
    router
      .post('disputes/:id/withdraw', [controllers.portal.Disputes, 'withdraw'])
      .where('id', uuid)
      .as('disputes.withdraw')
    router.get('funds', [controllers.portal.BuyerFunds, 'show']).as('funds.show')
    router.get('statement', [controllers.portal.Money, 'statement']).as('statement.show')
    router
      .get('statement/download', [controllers.portal.Money, 'statementCsv'])
      .as('statement.download')
  })
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
