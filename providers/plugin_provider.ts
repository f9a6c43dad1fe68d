import type { ApplicationService } from '@adonisjs/core/types'
import { PluginRegistry } from '#services/plugins/plugin_registry'

/**
 * Discovers the integration adapters under plugins/ at boot and registers
 * them in one registry the rest of the application asks. A broken adapter
 * is logged and skipped. Then the adapters become the webhooks' transport
 * for plugin endpoints, in the web process (test connection) and the
 * worker (deliveries) alike.
 */
export default class PluginProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(PluginRegistry, () => new PluginRegistry())
  }

  async boot() {
    const registry = await this.app.container.make(PluginRegistry)
    const logger = await this.app.container.make('logger')
    await registry.discover(this.app.makePath('plugins'), (broken) =>
      logger.error(
        { plugin: broken.folder, reason: broken.error },
        'plugin skipped: it did not load'
      )
    )
  }

  async start() {
    const registry = await this.app.container.make(PluginRegistry)
    const { installPluginRuntime } = await import('#services/plugins/plugin_transport')
    await installPluginRuntime(this.app.container, registry)
  }
}
