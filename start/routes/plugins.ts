import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'
import { CALL_VENDORS } from '#services/calls/call_vendors'
import { NO_CODE_PLATFORMS } from '#services/plugins/no_code_templates'

const uuid = router.matchers.uuid()

/** The "Integrations" section of the API: plugins enabled per label (docs/plugins.md), calls (docs/calls.md). */
router
  .group(() => {
    router.get('plugins', [controllers.Plugins, 'available']).as('plugins.available')
    router
      .get('leads/:id/plugin-syncs', [controllers.Plugins, 'leadSyncs'])
      .where('id', uuid)
      .as('plugins.lead_syncs')
    router.post('calls', [controllers.Calls, 'store']).as('calls.store')
    // One static route per vendor: the vendor is not a resource anyone owns.
    for (const vendor of CALL_VENDORS) {
      router
        .post(`calls/${vendor}`, [controllers.Calls, 'storeFromVendor'])
        .as(`calls.store_from_${vendor}`)
    }
    router
      .get('leads/:id/calls', [controllers.Calls, 'forLead'])
      .where('id', uuid)
      .as('calls.for_lead')
    router
      .group(() => {
        router.get('', [controllers.Plugins, 'index']).as('plugins.index')
        router.post('', [controllers.Plugins, 'store']).as('plugins.store')
        router.get(':name', [controllers.Plugins, 'show']).as('plugins.show')
        router.patch(':name', [controllers.Plugins, 'update']).as('plugins.update')
        router.delete(':name', [controllers.Plugins, 'destroy']).as('plugins.destroy')
        router.get(':name/deliveries', [controllers.Plugins, 'deliveries']).as('plugins.deliveries')
        router.post(':name/test', [controllers.Plugins, 'test']).as('plugins.test')
      })
      .prefix('labels/:id/plugins')
      .where('id', uuid)
    for (const platform of NO_CODE_PLATFORMS) {
      router
        .get(`labels/:id/templates/${platform}`, [controllers.Plugins, 'template'])
        .where('id', uuid)
        .as(`templates.${platform}`)
    }
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])

/** The MCP server for AI agents: one address, the transport answers GET and DELETE itself. */
router
  .any('/mcp', [controllers.Mcp, 'handle'])
  .as('mcp')
  .use([middleware.apiKey(), middleware.rateLimit()])
