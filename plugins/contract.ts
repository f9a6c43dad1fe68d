/**
 * The contract every integration adapter implements. An adapter lives in
 * plugins/<name>/index.ts and default-exports a LeadgatePlugin.
 */
export interface PluginManifest {
  /** Stable identifier, e.g. `crm-hubspot`. */
  name: string
  version: string
  description: string
  /** Event types the adapter reacts to, e.g. `lead.received`. */
  events: string[]
}

export interface PluginEvent {
  event_id: string
  type: string
  created: string
  data: Record<string, unknown>
}

export interface LeadgatePlugin {
  manifest: PluginManifest
  /** Called once per event of a subscribed type for labels that enabled the plugin. */
  handle(event: PluginEvent, settings: Record<string, unknown>): Promise<void>
}
