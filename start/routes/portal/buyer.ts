import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PortalController = () => import('#controllers/portal_controller')

/** The buyer portal: every page under /buyer. */
router
  .group(() => {
    router.get('/', [PortalController, 'home']).as('home')
  })
  .prefix('/buyer')
  .as('buyer')
  .use(portalStack('buyer'))
