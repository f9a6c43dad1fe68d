import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The operator's privacy pages (docs/privacy.md): a label's retention periods. */
router
  .group(() => {
    router
      .get('labels/:id/retention', [controllers.portal.Retention, 'edit'])
      .where('id', uuid)
      .as('retention.edit')
    router
      .put('labels/:id/retention', [controllers.portal.Retention, 'update'])
      .where('id', uuid)
      .as('retention.update')
  })
  .prefix('/operator')
  .as('operator.privacy')
  .use(portalStack('operator'))
