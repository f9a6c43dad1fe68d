/**
 * The contract every integration adapter implements, and all an adapter may
 * import of Leadgate (npm packages aside; `npm run lint` checks it). An
 * adapter lives in plugins/<name>/index.ts and default-exports a
 * LeadgatePlugin. The runtime (app/services/plugins/) calls `handle` once per
 * delivery, through the webhooks' delivery job, so retries, backoff, health,
 * the delivery log and replay are the same as a webhook's (docs/plugins.md).
 */
export type PluginKind = 'crm' | 'call_tracking' | 'notification' | 'other'

/** One setting of an installation; the operator's form and the validator are generated from these. */
export type SettingField =
  | {
      type: 'string'
      label: string
      description?: string
      required?: boolean
      /** Encrypted at rest, never returned: tokens, private keys. */
      secret?: boolean
      /** `url` settings must be http(s) URLs. */
      format?: 'url' | 'multiline'
      default?: string
    }
  | { type: 'boolean'; label: string; description?: string; default?: boolean }
  | {
      /** Remote field name → path in the lead (`contact.email`, `attributes.kwh`, `lead_id`). */
      type: 'mapping'
      label: string
      description?: string
      default?: Record<string, string>
    }

export interface PluginManifest {
  /** Stable identifier, e.g. `crm-hubspot`; the folder's name. */
  name: string
  version: string
  kind: PluginKind
  description: string
  /** Event types the adapter can react to, e.g. `lead.received`. */
  events: string[]
  /** The events an installation subscribes to unless the operator chooses. */
  defaultEvents?: string[]
  settings: Record<string, SettingField>
  /** Inbound routes the adapter's domain adds (documentation for the operator; served by core). */
  routes?: { method: 'GET' | 'POST'; path: string; description: string }[]
}

export interface PluginEvent {
  event_id: string
  type: string
  created: string
  data: Record<string, unknown>
}

/** The lead as the operator sees it (`GET /v1/leads/{id}`). */
export type PluginLead = Record<string, unknown> & { id: string }

/** One JSON request to the remote system. */
export type PluginRequest = {
  /** GET without a body, POST with one, unless named. */
  method?: string
  headers?: Record<string, string>
  /** Sent as JSON. */
  body?: unknown
  /** Sent form-encoded instead. */
  form?: URLSearchParams
}

/**
 * The adapter's way out to the remote system. The URL is the operator's setting or the remote's
 * answer, so every call is dialled under the webhooks' SSRF policy, with a timeout: an attempt
 * never hangs a worker. A non-2xx answer (or none) throws PluginFailure with the status and
 * Retry-After, which the delivery job turns into its retry decision like a webhook receiver's.
 */
export interface PluginHttp {
  /** The answer's JSON (null for an empty body). */
  json(url: string, request?: PluginRequest): Promise<any>
}

export interface PluginContext {
  /** The installation's settings, secrets decrypted. */
  settings: Record<string, unknown>
  /** Calls the remote system (call it only through this). */
  http: PluginHttp
  labelId: string
  environment: 'live' | 'sandbox'
  /** Reads the event's lead (contact included); null when it is not this label's. */
  lead(leadId: string): Promise<PluginLead | null>
  /** What an earlier delivery recorded for this lead (a replay finds it: idempotency). */
  previousSync(
    leadId: string
  ): Promise<{ externalId: string; details: Record<string, unknown> } | null>
  /** Writes the remote record's id back to the lead. */
  recordSync(leadId: string, externalId: string, details?: Record<string, unknown>): Promise<void>
  /**
   * Runs `work` while no other delivery of this installation, in any worker process, runs work
   * under the same key: a find-then-create against a system without an upsert (two leads of one
   * e-mail delivered at once would each find no person and make one). The key may hold personal
   * data; only its hash is stored. Waiting too long throws a PluginFailure, retried on schedule.
   */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T>
}

/**
 * What an adapter throws when the remote system refused or failed. `status`
 * is the remote's HTTP status; `retryAfter` its Retry-After header as sent
 * (seconds or a date; honoured like a webhook receiver's). A 4xx other
 * than 408/429 is still retried on the schedule (a fixed token recovers it),
 * exactly like a webhook.
 */
export class PluginFailure extends Error {
  constructor(
    message: string,
    readonly details: {
      status?: number | null
      retryAfter?: string | null
      excerpt?: string
      /** The remote's rate-limit headers (names lower-cased), for adapters that read their limits. */
      rateLimitHeaders?: Record<string, string>
    } = {}
  ) {
    super(message)
  }
}

export interface LeadgatePlugin {
  manifest: PluginManifest
  /** Called once per delivery of a subscribed event, for labels that enabled the plugin. */
  handle(event: PluginEvent, context: PluginContext): Promise<void>
  /** "Test connection": checks the settings against the remote system, changing nothing there. */
  testConnection?(context: PluginContext): Promise<{ ok: boolean; detail: string }>
}

/** The value at a dotted path of the lead (`contact.email`, `attributes.kwh`). */
export function valueAt(lead: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as any)[key] : undefined),
      lead
    )
}

/** Remote fields from a mapping setting (remote name → lead path); empty values are left out. */
export function mapFields(lead: Record<string, unknown>, mapping: Record<string, string>) {
  const fields: Record<string, string> = {}
  for (const [remote, path] of Object.entries(mapping)) {
    const value = valueAt(lead, path)
    if (value !== undefined && value !== null && value !== '') fields[remote] = String(value)
  }
  return fields
}
