import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

/** The operator's catalogue: buyers, routing rules, labels. */
router
  .group(() => {})
  .prefix('/operator')
  .as('operator.catalogue')
  .use(portalStack('operator'))
