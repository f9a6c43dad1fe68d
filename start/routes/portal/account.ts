import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack, sessionStack } from '#start/routes/portal/stacks'

/** A signed-in user's own account, whatever its role: password, sessions. */
router
  .group(() => {
    router.get('/', [controllers.portal.Account, 'show']).as('show')
    router.put('password', [controllers.portal.Account, 'updatePassword']).as('password.update')
    router
      .delete('sessions/:id', [controllers.portal.Account, 'destroySession'])
      .where('id', router.matchers.uuid())
      .as('sessions.destroy')
    router
      .post('sessions/sign-out-others', [controllers.portal.Account, 'destroyOtherSessions'])
      .as('sessions.destroy_others')
  })
  .prefix('/account')
  .as('account')
  .use(portalStack())

/**
 * Open to anyone holding the link, signed in or not: a forgotten password, and
 * the first password of a user invited by e-mail (choosing it signs in).
 */
router
  .group(() => {
    router.get('forgot-password', [controllers.portal.PasswordResets, 'create']).as('create')
    router.post('forgot-password', [controllers.portal.PasswordResets, 'store']).as('store')
    router.get('reset-password/:token', [controllers.portal.PasswordResets, 'show']).as('show')
    router.post('reset-password/:token', [controllers.portal.PasswordResets, 'update']).as('update')
  })
  .as('password_reset')
  .use(sessionStack())

router
  .group(() => {
    router.get('welcome/:token', [controllers.portal.UserInvitations, 'show']).as('show')
    router.post('welcome/:token', [controllers.portal.UserInvitations, 'store']).as('store')
  })
  .as('user_invitations')
  .use(sessionStack())
