import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const LeadsController = () => import('#controllers/portal/leads_controller')
const LeadReviewsController = () => import('#controllers/portal/lead_reviews_controller')

const uuid = router.matchers.uuid()

/** Leads in every portal: the operator's explorer and review queue, a publisher's own, a buyer's purchases. */
router
  .group(() => {
    router.get('leads', [LeadsController, 'index']).as('leads.index')
    router.get('leads/:id', [LeadsController, 'show']).where('id', uuid).as('leads.show')
    router.get('leads/:id/proof', [LeadsController, 'proof']).where('id', uuid).as('leads.proof')
    router
      .post('leads/:id/review', [LeadReviewsController, 'store'])
      .where('id', uuid)
      .as('leads.review')
    router.get('review', [LeadReviewsController, 'index']).as('review.index')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))

router
  .group(() => {
    router.get('leads', [LeadsController, 'index']).as('leads.index')
    router.get('leads/:id', [LeadsController, 'show']).where('id', uuid).as('leads.show')
    router.get('leads/:id/proof', [LeadsController, 'proof']).where('id', uuid).as('leads.proof')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))

/** The buyer's home is its leads. */
router
  .group(() => {
    router.get('/', [LeadsController, 'index']).as('leads.index')
    router.get('leads/:id', [LeadsController, 'show']).where('id', uuid).as('leads.show')
    router.get('leads/:id/proof', [LeadsController, 'proof']).where('id', uuid).as('leads.proof')
  })
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
