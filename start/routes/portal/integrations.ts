import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

/** API keys, OAuth clients and webhook endpoints, in every portal that has them. */
router
  .group(() => {})
  .prefix('/operator')
  .as('operator.integrations')
  .use(portalStack('operator'))
