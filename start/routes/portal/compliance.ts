import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PortalController = () => import('#controllers/portal_controller')

/** The compliance portal: every page under /compliance. */
router
  .group(() => {
    router.get('/', [PortalController, 'home']).as('home')
  })
  .prefix('/compliance')
  .as('compliance')
  .use(portalStack('compliance'))
