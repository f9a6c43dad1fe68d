import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The operator's people: every portal user, and the access log of who changed what. */
router
  .group(() => {
    router.get('users', [controllers.portal.Users, 'index']).as('users.index')
    router.post('users', [controllers.portal.Users, 'store']).as('users.store')
    router
      .patch('users/:id', [controllers.portal.Users, 'update'])
      .where('id', uuid)
      .as('users.update')
    router
      .post('users/:id/invitation', [controllers.portal.Users, 'resendInvitation'])
      .where('id', uuid)
      .as('users.invitation')

    router.get('access-log', [controllers.portal.AccessLog, 'index']).as('access_log.index')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))
