import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

/** Leads in every portal: the operator's explorer and review queue, a publisher's own, a buyer's purchases. */
router
  .group(() => {})
  .prefix('/operator')
  .as('operator.leads')
  .use(portalStack('operator'))
