import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The operator portal: every page under /operator. */
router
  .group(() => {
    router.get('/', [controllers.Portal, 'home']).as('home')

    router.get('publishers', [controllers.portal.Publishers, 'index']).as('publishers.index')
    router.get('publishers/new', [controllers.portal.Publishers, 'create']).as('publishers.create')
    router.post('publishers', [controllers.portal.Publishers, 'store']).as('publishers.store')
    router
      .get('publishers/:id', [controllers.portal.Publishers, 'show'])
      .where('id', uuid)
      .as('publishers.show')
    router
      .patch('publishers/:id', [controllers.portal.Publishers, 'update'])
      .where('id', uuid)
      .as('publishers.update')
    router
      .post('publishers/:id/invitation', [controllers.portal.Publishers, 'resendInvitation'])
      .where('id', uuid)
      .as('publishers.resend_invitation')

    router
      .get('publishers/:id/quality-rules', [controllers.portal.QualityRules, 'edit'])
      .where('id', uuid)
      .as('quality_rules.edit')
    router
      .put('publishers/:id/quality-rules', [controllers.portal.QualityRules, 'update'])
      .where('id', uuid)
      .as('quality_rules.update')
    router
      .post('publishers/:id/quality-rules/preview', [controllers.portal.QualityRules, 'preview'])
      .where('id', uuid)
      .as('quality_rules.preview')
  })
  .prefix('/operator')
  .as('operator')
  .use(portalStack('operator'))
