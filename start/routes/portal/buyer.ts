import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/**
 * The buyer portal; its home (/buyer) is its leads, in start/routes/portal/leads.ts. Here how it
 * takes leads (its destinations) and its routing rules as a buyer may change them.
 */
router
  .group(() => {
    router.get('destinations', [controllers.portal.Destinations, 'index']).as('destinations.index')
    router
      .get('destinations/new', [controllers.portal.Destinations, 'create'])
      .as('destinations.create')
    router.post('destinations', [controllers.portal.Destinations, 'store']).as('destinations.store')
    router
      .get('destinations/:id', [controllers.portal.Destinations, 'edit'])
      .where('id', uuid)
      .as('destinations.edit')
    router
      .patch('destinations/:id', [controllers.portal.Destinations, 'update'])
      .where('id', uuid)
      .as('destinations.update')
    router
      .delete('destinations/:id', [controllers.portal.Destinations, 'destroy'])
      .where('id', uuid)
      .as('destinations.destroy')
    router
      .post('destinations/:id/test', [controllers.portal.Destinations, 'test'])
      .where('id', uuid)
      .as('destinations.test')

    router.get('rules', [controllers.portal.BuyerRules, 'index']).as('rules.index')
    router
      .get('rules/:id/edit', [controllers.portal.BuyerRules, 'edit'])
      .where('id', uuid)
      .as('rules.edit')
    router
      .patch('rules/:id', [controllers.portal.BuyerRules, 'update'])
      .where('id', uuid)
      .as('rules.update')
  })
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
