import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PortalController = () => import('#controllers/portal_controller')

/** The operator portal: every page under /operator. */
router
  .group(() => {
    router.get('/', [PortalController, 'home']).as('home')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))
