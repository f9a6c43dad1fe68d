import vine from '@vinejs/vine'
import { integer, strictObject, timestamp, uuid } from '#validators/helpers'

const short = (max: number) => vine.string().trim().minLength(1).maxLength(max)

/** `POST /v1/calls`, and every vendor's payload once mapped to these names. */
export const callValidator = vine.create(
  strictObject({
    call_id: short(200),
    caller_number: short(32).nullable().optional(),
    tracking_number: short(32).nullable().optional(),
    started_at: timestamp(),
    duration_seconds: integer().range([0, 86_400]).nullable().optional(),
    disposition: short(100).nullable().optional(),
    recording_url: vine
      .string()
      .trim()
      .maxLength(2048)
      .url({ require_protocol: true, protocols: ['https', 'http'] })
      .nullable()
      .optional(),
    campaign: short(200).nullable().optional(),
    lead_id: uuid().nullable().optional(),
    country: vine
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/)
      .toUpperCase()
      .nullable()
      .optional(),
  })
)

/** A vendor's webhook body: a JSON object, whose fields the vendor's mapping reads. */
export const vendorCallValidator = vine.create(vine.record(vine.any()))
