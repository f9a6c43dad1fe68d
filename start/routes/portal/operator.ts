import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PortalController = () => import('#controllers/portal_controller')
const PublishersController = () => import('#controllers/portal/publishers_controller')
const QualityRulesController = () => import('#controllers/portal/quality_rules_controller')

const uuid = router.matchers.uuid()

/** The operator portal: every page under /operator. */
router
  .group(() => {
    router.get('/', [PortalController, 'home']).as('home')

    router.get('publishers', [PublishersController, 'index']).as('publishers.index')
    router.get('publishers/new', [PublishersController, 'create']).as('publishers.create')
    router.post('publishers', [PublishersController, 'store']).as('publishers.store')
    router
      .get('publishers/:id', [PublishersController, 'show'])
      .where('id', uuid)
      .as('publishers.show')
    router
      .patch('publishers/:id', [PublishersController, 'update'])
      .where('id', uuid)
      .as('publishers.update')
    router
      .post('publishers/:id/invitation', [PublishersController, 'resendInvitation'])
      .where('id', uuid)
      .as('publishers.resend_invitation')

    router
      .get('publishers/:id/quality-rules', [QualityRulesController, 'edit'])
      .where('id', uuid)
      .as('quality_rules.edit')
    router
      .put('publishers/:id/quality-rules', [QualityRulesController, 'update'])
      .where('id', uuid)
      .as('quality_rules.update')
    router
      .post('publishers/:id/quality-rules/preview', [QualityRulesController, 'preview'])
      .where('id', uuid)
      .as('quality_rules.preview')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))
