import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { portalStack, sessionStack } from '#start/routes/portal/stacks'
import '#start/routes/portal/account'
import '#start/routes/portal/operator'
import '#start/routes/portal/operator_catalogue'
import '#start/routes/portal/operator_people'
import '#start/routes/portal/integrations'
import '#start/routes/portal/leads'
import '#start/routes/portal/publisher'
import '#start/routes/portal/buyer'
import '#start/routes/portal/compliance'
import '#start/routes/portal/forms'
import '#start/routes/portal/uploads'
import '#start/routes/portal/money'
import '#start/routes/portal/money_operator'
import '#start/routes/portal/privacy_operator'
import '#start/routes/portal/plugins_operator'
import '#start/routes/portal/reports'

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
  })
  .use(sessionStack())

router
  .group(() => {
    router.post('logout', [SessionController, 'destroy']).as('session.destroy')
    // Every role has its own portal; /portal sends the user to its home.
    router.get('portal', [PortalController, 'show']).as('portal.show')
  })
  .use(portalStack())
