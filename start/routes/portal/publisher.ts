import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PortalController = () => import('#controllers/portal_controller')

/** The publisher portal: every page under /publisher. */
router
  .group(() => {
    router.get('/', [PortalController, 'home']).as('home')
  })
  .prefix('/publisher')
  .as('publisher')
  .use(portalStack('publisher'))
