import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { LeadgatePlugin } from '#plugins/contract'

export class PluginRegistry {
  #plugins = new Map<string, LeadgatePlugin>()

  /**
   * Every folder under plugins/ with an index file is an adapter. Files at the
   * top level (this registry, the contract) are not.
   */
  async discover(root: string) {
    const entries = await readdir(root, { withFileTypes: true })
    for (const entry of entries.filter((item) => item.isDirectory())) {
      const module = await import(pathToFileURL(join(root, entry.name, 'index.js')).href)
      this.register(module.default as LeadgatePlugin)
    }
  }

  register(plugin: LeadgatePlugin) {
    if (this.#plugins.has(plugin.manifest.name)) {
      throw new Error(`Plugin "${plugin.manifest.name}" is registered twice`)
    }
    this.#plugins.set(plugin.manifest.name, plugin)
  }

  get(name: string) {
    return this.#plugins.get(name)
  }

  list() {
    return [...this.#plugins.values()].map((plugin) => plugin.manifest)
  }
}
