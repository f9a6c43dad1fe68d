import type { Data } from '@generated/data'

/**
 * A crm destination as its form edits it: the plugin and its settings as text (a mapping as
 * `remote=path` lines), from the plugin's manifest; and back to the body the API takes. A
 * secret setting starts empty: it is never shown back.
 */
export type SettingField = Data.PluginManifest['settings'][string] & {
  secret?: boolean
  required?: boolean
}
export type CrmDraft = { plugin: string | null; settings: Record<string, string | boolean> }

type StoredCrm = { plugin?: unknown; settings?: unknown } | null

export function settingsOf(manifest: Data.PluginManifest | undefined) {
  return Object.entries(manifest?.settings ?? {}) as [string, SettingField][]
}

export function crmSettingsDraft(
  plugins: Data.PluginManifest[],
  plugin: string | null,
  stored: StoredCrm
) {
  const manifest = plugins.find((item) => item.name === plugin)
  const current = (stored?.plugin === plugin ? (stored?.settings ?? {}) : {}) as Record<
    string,
    unknown
  >
  return Object.fromEntries(
    settingsOf(manifest).map(([key, field]) => {
      const value = current[key] ?? (field as { default?: unknown }).default
      if (field.type === 'mapping') {
        const pairs = Object.entries((value ?? {}) as Record<string, string>)
        return [key, pairs.map(([remote, path]) => `${remote}=${path}`).join('\n')]
      }
      if (field.type === 'boolean') return [key, Boolean(value)]
      return [key, field.secret ? '' : String(value ?? '')]
    })
  ) as Record<string, string | boolean>
}

export function crmDraft(plugins: Data.PluginManifest[], stored: StoredCrm): CrmDraft {
  const plugin = (stored?.plugin as string | undefined) ?? plugins[0]?.name ?? null
  return { plugin, settings: crmSettingsDraft(plugins, plugin, stored) }
}

export function crmBody(plugins: Data.PluginManifest[], draft: CrmDraft) {
  const settings: Record<string, unknown> = {}
  for (const [key, field] of settingsOf(plugins.find((item) => item.name === draft.plugin))) {
    const value = draft.settings[key]
    if (field.type === 'mapping') {
      settings[key] = Object.fromEntries(
        String(value ?? '')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .map((line) => line.split('=').map((part) => part.trim()))
      )
    } else if (field.type === 'boolean') settings[key] = Boolean(value)
    else if (value !== '' && value !== undefined) settings[key] = String(value)
  }
  return { plugin: draft.plugin ?? '', settings }
}
