import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const BuyersController = () => import('#controllers/portal/buyers_controller')
const RoutingRulesController = () => import('#controllers/portal/routing_rules_controller')
const LabelsController = () => import('#controllers/portal/labels_controller')

const uuid = router.matchers.uuid()

/** The operator's catalogue: buyers, routing rules, labels. */
router
  .group(() => {
    router.get('buyers', [BuyersController, 'index']).as('buyers.index')
    router.get('buyers/new', [BuyersController, 'create']).as('buyers.create')
    router.post('buyers', [BuyersController, 'store']).as('buyers.store')
    router.get('buyers/:id', [BuyersController, 'show']).where('id', uuid).as('buyers.show')
    router.patch('buyers/:id', [BuyersController, 'update']).where('id', uuid).as('buyers.update')

    router.get('routing-rules', [RoutingRulesController, 'index']).as('routing_rules.index')
    router.get('routing-rules/new', [RoutingRulesController, 'create']).as('routing_rules.create')
    router.post('routing-rules', [RoutingRulesController, 'store']).as('routing_rules.store')
    router
      .get('routing-rules/:id/edit', [RoutingRulesController, 'edit'])
      .where('id', uuid)
      .as('routing_rules.edit')
    router
      .patch('routing-rules/:id', [RoutingRulesController, 'update'])
      .where('id', uuid)
      .as('routing_rules.update')
    router
      .delete('routing-rules/:id', [RoutingRulesController, 'destroy'])
      .where('id', uuid)
      .as('routing_rules.destroy')

    router.get('labels', [LabelsController, 'index']).as('labels.index')
    router.get('labels/new', [LabelsController, 'create']).as('labels.create')
    router.post('labels', [LabelsController, 'store']).as('labels.store')
    router.get('labels/:id/edit', [LabelsController, 'edit']).where('id', uuid).as('labels.edit')
    router.patch('labels/:id', [LabelsController, 'update']).where('id', uuid).as('labels.update')
  })
  .prefix('/operator')
  .as('operator.catalogue')
  .use(portalStack('operator'))
