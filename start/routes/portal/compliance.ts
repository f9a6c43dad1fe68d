import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

/** The compliance portal: every page under /compliance. */
router
  .group(() => {
    // Audit: verify a lead's trail or the whole log, and a lead's proof bundle.
    router.get('/', [controllers.portal.Compliance, 'show']).as('home')
    router.post('verify', [controllers.portal.Compliance, 'verify']).as('verification.store')
    router
      .post('verify-log', [controllers.portal.Compliance, 'verifyLog'])
      .as('log_verification.store')
    router.get('proof', [controllers.portal.Compliance, 'proof']).as('proof.show')

    router.get('exports', [controllers.portal.Compliance, 'exportsPage']).as('exports.index')
    router
      .get('exports/download', [controllers.portal.Compliance, 'download'])
      .as('exports.download')
  })
  .prefix('/compliance')
  .as('compliance')
  .use(portalStack('compliance'))
