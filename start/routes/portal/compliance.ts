import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const ComplianceController = () => import('#controllers/portal/compliance_controller')

/** The compliance portal: every page under /compliance. */
router
  .group(() => {
    // Audit: verify a lead's trail or the whole log, and a lead's proof bundle.
    router.get('/', [ComplianceController, 'show']).as('home')
    router.post('verify', [ComplianceController, 'verify']).as('verification.store')
    router.post('verify-log', [ComplianceController, 'verifyLog']).as('log_verification.store')
    router.get('proof', [ComplianceController, 'proof']).as('proof.show')

    router.get('exports', [ComplianceController, 'exportsPage']).as('exports.index')
    router.get('exports/download', [ComplianceController, 'download']).as('exports.download')
  })
  .prefix('/compliance')
  .as('compliance')
  .use(portalStack('compliance'))
