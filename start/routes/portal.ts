import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const ApiDocsController = () => import('#controllers/api_docs_controller')
const SessionController = () => import('#controllers/session_controller')
const PortalController = () => import('#controllers/portal_controller')
const InvitationsController = () => import('#controllers/invitations_controller')

router.get('/docs', [ApiDocsController, 'show']).as('docs')

router
  .group(() => {
    router.on('/').redirectToPath('/login')

    router
      .group(() => {
        router.get('login', [SessionController, 'create']).as('session.create')
        router.post('login', [SessionController, 'store']).as('session.store')
      })
      .use(middleware.guest())

    // Open to anyone holding the link, signed in or not: accepting signs in as the new user.
    router.get('invitations/:token', [InvitationsController, 'show']).as('invitations.show')
    router.post('invitations/:token', [InvitationsController, 'store']).as('invitations.store')

    router
      .group(() => {
        router.post('logout', [SessionController, 'destroy']).as('session.destroy')
        router.get('portal', [PortalController, 'show']).as('portal.show')
      })
      .use([middleware.auth(), middleware.portalBouncer()])
  })
  .use([
    middleware.session(),
    middleware.shield(),
    middleware.initializeAuth(),
    middleware.silentAuth(),
  ])
