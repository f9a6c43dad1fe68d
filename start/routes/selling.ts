import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()

/** The "Selling" section of the API: destinations, the sale of a lead (docs/selling.md). */
router
  .group(() => {
    router.get('leads/:id/sale', [controllers.Sales, 'show']).where('id', uuid).as('leads.sale')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])
