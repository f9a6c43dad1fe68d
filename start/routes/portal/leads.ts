import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** Leads in every portal: the operator's explorer and review queue, a publisher's own, a buyer's purchases. */
router
  .group(() => {
    router.get('leads', [controllers.portal.Leads, 'index']).as('leads.index')
    router.get('leads/:id', [controllers.portal.Leads, 'show']).where('id', uuid).as('leads.show')
    router
      .get('leads/:id/proof', [controllers.portal.Leads, 'proof'])
      .where('id', uuid)
      .as('leads.proof')
    router
      .post('leads/:id/review', [controllers.portal.LeadReviews, 'store'])
      .where('id', uuid)
      .as('leads.review')
    router.get('review', [controllers.portal.LeadReviews, 'index']).as('review.index')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))

router
  .group(() => {
    router.get('leads', [controllers.portal.Leads, 'index']).as('leads.index')
    router.get('leads/:id', [controllers.portal.Leads, 'show']).where('id', uuid).as('leads.show')
    router
      .get('leads/:id/proof', [controllers.portal.Leads, 'proof'])
      .where('id', uuid)
      .as('leads.proof')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))

/** The buyer's home is its leads. */
router
  .group(() => {
    router.get('/', [controllers.portal.Leads, 'index']).as('leads.index')
    router.get('leads/:id', [controllers.portal.Leads, 'show']).where('id', uuid).as('leads.show')
    router
      .get('leads/:id/proof', [controllers.portal.Leads, 'proof'])
      .where('id', uuid)
      .as('leads.proof')
  })
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
