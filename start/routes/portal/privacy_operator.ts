import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const RetentionController = () => import('#controllers/portal/retention_controller')

const uuid = router.matchers.uuid()

/** The operator's privacy pages (docs/privacy.md): a label's retention periods. */
router
  .group(() => {
    router
      .get('labels/:id/retention', [RetentionController, 'edit'])
      .where('id', uuid)
      .as('retention.edit')
    router
      .put('labels/:id/retention', [RetentionController, 'update'])
      .where('id', uuid)
      .as('retention.update')
  })
  .prefix('/operator')
  .as('operator.privacy')
  .use(portalStack('operator'))
