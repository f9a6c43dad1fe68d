import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { LeadgatePlugin } from '#plugins/contract'

export type BrokenPlugin = { folder: string; error: string }

const NAME = /^[a-z][a-z0-9-]{1,62}$/
const KINDS = ['crm', 'call_tracking', 'notification', 'other']
const SETTING_TYPES = ['string', 'boolean', 'mapping']

/** Why a module's default export is not a usable plugin; null when it is. */
export function manifestProblem(plugin: unknown, folder: string): string | null {
  const candidate = plugin as Partial<LeadgatePlugin> | undefined
  const manifest = candidate?.manifest
  if (!manifest || typeof candidate?.handle !== 'function')
    return 'the default export has no manifest or no handle()'
  if (manifest.name !== folder || !NAME.test(manifest.name))
    return `the manifest's name must be the folder's name ("${folder}")`
  if (typeof manifest.version !== 'string' || manifest.version === '') return 'no version'
  if (!KINDS.includes(manifest.kind)) return `unknown kind "${manifest.kind}"`
  // An inbound-only plugin (its routes are served by core, e.g. a call vendor's signing key)
  // reacts to no event; any other plugin without events would never run.
  if (!Array.isArray(manifest.events)) return 'no events'
  if (manifest.events.length === 0 && !(manifest.routes && manifest.routes.length > 0))
    return 'no events'
  if (manifest.defaultEvents?.some((type) => !manifest.events.includes(type)))
    return 'a default event is not among its events'
  for (const [key, field] of Object.entries(manifest.settings ?? {})) {
    if (!/^[a-z][a-z0-9_]*$/.test(key) || !SETTING_TYPES.includes(field?.type))
      return `setting "${key}" is not valid`
  }
  return null
}

export class PluginRegistry {
  #plugins = new Map<string, LeadgatePlugin>()
  readonly broken: BrokenPlugin[] = []

  /**
   * Every folder under plugins/ with an index file is an adapter. A folder
   * that fails to load or describes itself wrongly is reported and skipped:
   * one broken adapter never takes the application down.
   */
  async discover(root: string, report: (broken: BrokenPlugin) => void = () => {}) {
    if (!existsSync(root)) return
    const entries = await readdir(root, { withFileTypes: true })
    for (const entry of entries.filter((item) => item.isDirectory())) {
      // A build holds index.js; the sources (development, tests) index.ts.
      const file = ['index.js', 'index.ts']
        .map((name) => join(root, entry.name, name))
        .find((path) => existsSync(path))
      if (!file) continue
      try {
        const module = await import(pathToFileURL(file).href)
        const problem = manifestProblem(module.default, entry.name)
        if (problem) throw new Error(problem)
        this.register(module.default as LeadgatePlugin)
      } catch (error) {
        const broken = { folder: entry.name, error: String((error as Error)?.message ?? error) }
        this.broken.push(broken)
        report(broken)
      }
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
