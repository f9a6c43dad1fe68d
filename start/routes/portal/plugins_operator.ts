import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/** The operator's integration plugins per label (docs/plugins.md). */
router
  .group(() => {
    router
      .get('labels/:id/plugins', [controllers.portal.Plugins, 'index'])
      .where('id', uuid)
      .as('index')
    router
      .post('labels/:id/plugins', [controllers.portal.Plugins, 'store'])
      .where('id', uuid)
      .as('store')
    router
      .patch('labels/:id/plugins/:name', [controllers.portal.Plugins, 'update'])
      .where('id', uuid)
      .as('update')
    router
      .post('labels/:id/plugins/:name/test', [controllers.portal.Plugins, 'test'])
      .where('id', uuid)
      .as('test')
  })
  .prefix('/operator')
  .as('operator.plugins')
  .use(portalStack('operator'))
