import type { ApplicationService } from '@adonisjs/core/types'
import { PluginRegistry } from '#plugins/registry'

/**
 * Discovers the integration adapters under plugins/ at boot and registers
 * them in one registry the rest of the application asks.
 */
export default class PluginProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(PluginRegistry, () => new PluginRegistry())
  }

  async boot() {
    const registry = await this.app.container.make(PluginRegistry)
    await registry.discover(this.app.makePath('plugins'))
  }
}
