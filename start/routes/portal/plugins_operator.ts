import router from '@adonisjs/core/services/router'
import { portalStack } from '#start/routes/portal/stacks'

const PluginsController = () => import('#controllers/portal/plugins_controller')

const uuid = router.matchers.uuid()

/** The operator's integration plugins per label (docs/plugins.md). */
router
  .group(() => {
    router.get('labels/:id/plugins', [PluginsController, 'index']).where('id', uuid).as('index')
    router.post('labels/:id/plugins', [PluginsController, 'store']).where('id', uuid).as('store')
    router
      .patch('labels/:id/plugins/:name', [PluginsController, 'update'])
      .where('id', uuid)
      .as('update')
    router
      .post('labels/:id/plugins/:name/test', [PluginsController, 'test'])
      .where('id', uuid)
      .as('test')
  })
  .prefix('/operator')
  .as('operator.plugins')
  .use(portalStack('operator'))
