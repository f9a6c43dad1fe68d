import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

/** A signed-in user's own account, whatever its role: password, sessions. */
router
  .group(() => {})
  .prefix('/account')
  .as('account')
  .use(portalStack())
