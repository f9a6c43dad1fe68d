import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()

/** The "Selling" section of the API: destinations, the sale of a lead (docs/selling.md). */
router
  .group(() => {
    router.get('leads/:id/sale', [controllers.Sales, 'show']).where('id', uuid).as('leads.sale')
    router.post('pings', [controllers.Pings, 'store']).as('pings.store')
    router
      .get('publishers/:id/posting-spec', [controllers.PostingSpecs, 'show'])
      .where('id', uuid)
      .as('posting_specs.show')

    router
      .group(() => {
        router.get('', [controllers.Destinations, 'index']).as('index')
        router.post('', [controllers.Destinations, 'store']).as('store')
        router.get(':destination_id', [controllers.Destinations, 'show']).as('show')
        router.patch(':destination_id', [controllers.Destinations, 'update']).as('update')
        router.delete(':destination_id', [controllers.Destinations, 'destroy']).as('destroy')
        router.post(':destination_id/test', [controllers.Destinations, 'test']).as('test')
      })
      .prefix('buyers/:id/destinations')
      .where('id', uuid)
      .where('destination_id', uuid)
      .as('destinations')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
