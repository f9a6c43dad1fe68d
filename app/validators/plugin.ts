import vine from '@vinejs/vine'
import { flag, strictObject } from '#validators/helpers'
import { EVENT_TYPES } from '#services/webhooks/event_schemas'
import { endpointDeliveriesValidator } from '#validators/webhook_endpoint'

/**
 * The envelope of an installation. `settings` is checked by the service
 * against the plugin's own schema (its manifest), which only it knows.
 */
/** May be empty for an inbound-only plugin (no events); the service refuses it for the others. */
const events = () => vine.array(vine.enum(EVENT_TYPES)).maxLength(EVENT_TYPES.length).distinct()
const settings = () => vine.record(vine.any())
/** A plugin's name as its manifest gives it. */
export const pluginName = () =>
  vine
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{1,62}$/)

export const installPluginValidator = vine.create(
  strictObject({
    plugin: pluginName(),
    events: events().optional(),
    settings: settings().optional(),
    enabled: flag().optional(),
  })
)

export const updatePluginValidator = vine.create(
  strictObject({
    events: events().optional(),
    settings: settings().optional(),
    enabled: flag().optional(),
  })
)

/** The plugin in a path, by name or by the installation's id; anything else answers 404. */
export const pluginNameValidator = vine.create(
  vine.object({
    name: vine
      .string()
      .regex(
        /^(?:[a-z][a-z0-9-]{1,62}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/
      ),
  })
)

/** An installation's delivery log takes the webhook log's filters. */
export const pluginDeliveriesValidator = endpointDeliveriesValidator
