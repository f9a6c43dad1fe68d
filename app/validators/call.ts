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

const vendorText = (max = 200) => vine.string().trim().minLength(1).maxLength(max)
const phone = () => vendorText(32)
const link = () =>
  vine
    .string()
    .trim()
    .maxLength(2048)
    .url({ require_protocol: true, protocols: ['https', 'http'] })
const seconds = () => integer().range([0, 86_400])

/**
 * Each vendor's webhook body, with the fields its documentation names and
 * Leadgate maps (docs/calls.md): typed, bounded, and nothing else, so a
 * mistyped template is refused rather than half read.
 */
export const ringbaCallValidator = vine.create(
  strictObject({
    inboundCallId: vendorText(),
    inboundPhoneNumber: phone().optional(),
    dialedNumber: phone().optional(),
    callStartTime: timestamp(),
    callLengthInSeconds: seconds().optional(),
    disposition: vendorText(100).optional(),
    recordingUrl: link().optional(),
    campaignName: vendorText().optional(),
    lead_id: uuid().optional(),
  })
)

export const retreaverCallValidator = vine.create(
  strictObject({
    call_uuid: vendorText(),
    caller_number: phone().optional(),
    dialed_number: phone().optional(),
    start_time: timestamp(),
    duration: seconds().optional(),
    status: vendorText(100).optional(),
    recording_url: link().optional(),
    campaign_name: vendorText().optional(),
    tags: strictObject({ lead_id: uuid().optional() }).optional(),
  })
)

/**
 * CallRail's fields Leadgate reads. A request verified with the label's
 * signing key is CallRail's own post-call body, which carries many more
 * fields: those are dropped before validation (docs/calls.md).
 */
export const CALLRAIL_FIELDS = [
  'resource_id',
  'customer_phone_number',
  'tracking_phone_number',
  'start_time',
  'duration',
  'answered',
  'recording',
  'campaign',
  'source_name',
  'custom',
] as const

export const callrailCallValidator = vine.create(
  strictObject({
    resource_id: vendorText(),
    customer_phone_number: phone().optional(),
    tracking_phone_number: phone().optional(),
    start_time: timestamp(),
    duration: seconds().optional(),
    answered: vine.boolean({ strict: true }).optional(),
    recording: link().nullable().optional(),
    campaign: vendorText().nullable().optional(),
    source_name: vendorText().nullable().optional(),
    custom: strictObject({ lead_id: uuid().optional() }).optional(),
  })
)

export const invocaCallValidator = vine.create(
  strictObject({
    complete_call_id: vendorText(),
    calling_phone_number: phone().optional(),
    destination_phone_number: phone().optional(),
    /** Milliseconds since the epoch, as Invoca sends it. */
    start_time_utc: integer().range([0, 253_402_300_799_999]),
    duration: seconds().optional(),
    call_result_description_detail: vendorText(100).optional(),
    recording: link().optional(),
    advertiser_campaign_name: vendorText().optional(),
    lead_id: uuid().optional(),
  })
)

export const vendorCallValidators = {
  ringba: ringbaCallValidator,
  retreaver: retreaverCallValidator,
  callrail: callrailCallValidator,
  invoca: invocaCallValidator,
}
