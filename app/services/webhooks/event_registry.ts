import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import { EVENT_TYPES, envelopeSchema, type EventType } from '#services/webhooks/event_schemas'

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as FormatsPlugin

/** A payload that breaks its event's schema: a bug in the code that published it. */
export class InvalidEventPayload extends Error {
  constructor(
    readonly type: string,
    readonly problems: string[]
  ) {
    super(
      `The ${type} payload does not match its JSON Schema (app/services/webhooks/event_schemas.ts): ${problems.join('; ')}`
    )
  }
}

const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true })
addFormats(ajv, ['uuid', 'date-time', 'date', 'uri'])

/** Compiled once at load: the registry of every event type Leadgate sends. */
const validators = new Map<string, ValidateFunction>(
  EVENT_TYPES.map((type) => [type, ajv.compile(envelopeSchema(type))])
)

export function isEventType(type: string): type is EventType {
  return validators.has(type)
}

/** Throws unless the envelope is exactly what the schema of its type allows. */
export function assertValidEvent(envelope: { type: string } & Record<string, unknown>) {
  const type = envelope.type
  const validate = validators.get(type)
  if (!validate) throw new InvalidEventPayload(type, ['unknown event type'])
  if (!validate(envelope)) {
    const problems = (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message}`
    )
    throw new InvalidEventPayload(type, problems)
  }
}
