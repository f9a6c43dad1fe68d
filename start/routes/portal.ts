import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
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

router.get('/docs', [controllers.ApiDocs, 'show']).as('docs')

router
  .group(() => {
    router.on('/').redirectToPath('/login')

    router
      .group(() => {
        router.get('login', [controllers.Session, 'create']).as('session.create')
        router.post('login', [controllers.Session, 'store']).as('session.store')
      })
      .use(middleware.guest())

    // Open to anyone holding the link, signed in or not: accepting signs in as the new user.
    router.get('invitations/:token', [controllers.Invitations, 'show']).as('invitations.show')
    router.post('invitations/:token', [controllers.Invitations, 'store']).as('invitations.store')
  })
  .use(sessionStack())

router
  .group(() => {
    router.post('logout', [controllers.Session, 'destroy']).as('session.destroy')
    // Every role has its own portal; /portal sends the user to its home.
    router.get('portal', [controllers.Portal, 'show']).as('portal.show')
  })
  .use(portalStack())
