import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PortalUsersController = () => import('#controllers/portal/users_controller')
const PortalAccessLogController = () => import('#controllers/portal/access_log_controller')

const uuid = router.matchers.uuid()

/** The operator's people: every portal user, and the access log of who changed what. */
router
  .group(() => {
    router.get('users', [PortalUsersController, 'index']).as('users.index')
    router.post('users', [PortalUsersController, 'store']).as('users.store')
    router
      .patch('users/:id', [PortalUsersController, 'update'])
      .where('id', uuid)
      .as('users.update')
    router
      .post('users/:id/invitation', [PortalUsersController, 'resendInvitation'])
      .where('id', uuid)
      .as('users.invitation')

    router.get('access-log', [PortalAccessLogController, 'index']).as('access_log.index')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))
