import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { CALL_VENDORS } from '#services/calls/call_vendors'
import { NO_CODE_PLATFORMS } from '#services/plugins/no_code_templates'

const PluginsController = () => import('#controllers/plugins_controller')
const CallsController = () => import('#controllers/calls_controller')
const McpController = () => import('#controllers/mcp_controller')

const uuid = router.matchers.uuid()

/** The "Integrations" section of the API: plugins enabled per label (docs/plugins.md), calls (docs/calls.md). */
router
  .group(() => {
    router.get('plugins', [PluginsController, 'available']).as('plugins.available')
    router
      .get('leads/:id/plugin-syncs', [PluginsController, 'leadSyncs'])
      .where('id', uuid)
      .as('plugins.lead_syncs')
    router.post('calls', [CallsController, 'store']).as('calls.store')
    // One static route per vendor: the vendor is not a resource anyone owns.
    for (const vendor of CALL_VENDORS) {
      router
        .post(`calls/${vendor}`, [CallsController, 'storeFromVendor'])
        .as(`calls.store_from_${vendor}`)
    }
    router
      .get('leads/:id/calls', [CallsController, 'forLead'])
      .where('id', uuid)
      .as('calls.for_lead')
    router
      .group(() => {
        router.get('', [PluginsController, 'index']).as('plugins.index')
        router.post('', [PluginsController, 'store']).as('plugins.store')
        router.get(':name', [PluginsController, 'show']).as('plugins.show')
        router.patch(':name', [PluginsController, 'update']).as('plugins.update')
        router.delete(':name', [PluginsController, 'destroy']).as('plugins.destroy')
        router.get(':name/deliveries', [PluginsController, 'deliveries']).as('plugins.deliveries')
        router.post(':name/test', [PluginsController, 'test']).as('plugins.test')
      })
      .prefix('labels/:id/plugins')
      .where('id', uuid)
    for (const platform of NO_CODE_PLATFORMS) {
      router
        .get(`labels/:id/templates/${platform}`, [PluginsController, 'template'])
        .where('id', uuid)
        .as(`templates.${platform}`)
    }
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])

/** The MCP server for AI agents: one address, the transport answers GET and DELETE itself. */
router
  .any('/mcp', [McpController, 'handle'])
  .as('mcp')
  .use([middleware.apiKey(), middleware.rateLimit()])
