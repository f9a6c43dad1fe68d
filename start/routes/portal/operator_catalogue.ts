import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The operator's catalogue: buyers, routing rules, labels. */
router
  .group(() => {
    router.get('buyers', [controllers.portal.Buyers, 'index']).as('buyers.index')
    router.get('buyers/new', [controllers.portal.Buyers, 'create']).as('buyers.create')
    router.post('buyers', [controllers.portal.Buyers, 'store']).as('buyers.store')
    router
      .get('buyers/:id', [controllers.portal.Buyers, 'show'])
      .where('id', uuid)
      .as('buyers.show')
    router
      .patch('buyers/:id', [controllers.portal.Buyers, 'update'])
      .where('id', uuid)
      .as('buyers.update')
    router
      .post('buyers/:id/top-ups', [controllers.portal.BuyerFunds, 'topUp'])
      .where('id', uuid)
      .as('buyers.top_ups.store')

    router
      .get('routing-rules', [controllers.portal.RoutingRules, 'index'])
      .as('routing_rules.index')
    router
      .get('routing-rules/new', [controllers.portal.RoutingRules, 'create'])
      .as('routing_rules.create')
    router
      .post('routing-rules', [controllers.portal.RoutingRules, 'store'])
      .as('routing_rules.store')
    router
      .get('routing-rules/:id/edit', [controllers.portal.RoutingRules, 'edit'])
      .where('id', uuid)
      .as('routing_rules.edit')
    router
      .patch('routing-rules/:id', [controllers.portal.RoutingRules, 'update'])
      .where('id', uuid)
      .as('routing_rules.update')
    router
      .delete('routing-rules/:id', [controllers.portal.RoutingRules, 'destroy'])
      .where('id', uuid)
      .as('routing_rules.destroy')

    router.get('labels', [controllers.portal.Labels, 'index']).as('labels.index')
    router.get('labels/new', [controllers.portal.Labels, 'create']).as('labels.create')
    router.post('labels', [controllers.portal.Labels, 'store']).as('labels.store')
    router
      .get('labels/:id/edit', [controllers.portal.Labels, 'edit'])
      .where('id', uuid)
      .as('labels.edit')
    router
      .patch('labels/:id', [controllers.portal.Labels, 'update'])
      .where('id', uuid)
      .as('labels.update')
    router
      .get('labels/:id/selling', [controllers.portal.LabelSales, 'edit'])
      .where('id', uuid)
      .as('label_sales.edit')
    router
      .patch('labels/:id/selling', [controllers.portal.LabelSales, 'update'])
      .where('id', uuid)
      .as('label_sales.update')
  })
  .prefix('/operator')
  .as('operator.catalogue')
  .use(portalStack('operator'))
