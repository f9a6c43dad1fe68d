import router from '@adonisjs/core/services/router'
import { portalStack, sessionStack } from '#start/routes/portal/stacks'

const AccountController = () => import('#controllers/portal/account_controller')
const PasswordResetsController = () => import('#controllers/portal/password_resets_controller')
const UserInvitationsController = () => import('#controllers/portal/user_invitations_controller')

/** A signed-in user's own account, whatever its role: password, sessions. */
router
  .group(() => {
    router.get('/', [AccountController, 'show']).as('show')
    router.put('password', [AccountController, 'updatePassword']).as('password.update')
    router
      .delete('sessions/:id', [AccountController, 'destroySession'])
      .where('id', router.matchers.uuid())
      .as('sessions.destroy')
    router
      .post('sessions/sign-out-others', [AccountController, 'destroyOtherSessions'])
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
    router.get('forgot-password', [PasswordResetsController, 'create']).as('create')
    router.post('forgot-password', [PasswordResetsController, 'store']).as('store')
    router.get('reset-password/:token', [PasswordResetsController, 'show']).as('show')
    router.post('reset-password/:token', [PasswordResetsController, 'update']).as('update')
  })
  .as('password_reset')
  .use(sessionStack())

router
  .group(() => {
    router.get('welcome/:token', [UserInvitationsController, 'show']).as('show')
    router.post('welcome/:token', [UserInvitationsController, 'store']).as('store')
  })
  .as('user_invitations')
  .use(sessionStack())
