/**
 * The call as Leadgate records it, whatever reported it. `caller_number` is
 * used to find the lead and never stored.
 */
export type CallInput = {
  call_id: string
  caller_number?: string | null
  tracking_number?: string | null
  started_at: Date
  duration_seconds?: number | null
  disposition?: string | null
  recording_url?: string | null
  campaign?: string | null
  lead_id?: string | null
  country?: string | null
}

export const CALL_VENDORS = ['ringba', 'retreaver', 'callrail', 'invoca'] as const
export type CallVendor = (typeof CALL_VENDORS)[number]

type Payload = Record<string, any>

const text = (value: unknown) =>
  value === undefined || value === null || value === '' ? null : String(value)
const seconds = (value: unknown) => {
  const number = Number(value)
  return Number.isFinite(number) && number >= 0 ? Math.round(number) : null
}
/** ISO text, or epoch seconds / milliseconds as vendors send them. */
const instant = (value: unknown) => {
  if (value === undefined || value === null || value === '') return null
  const number = Number(value)
  const date = Number.isFinite(number)
    ? new Date(number > 1e12 ? number : number * 1000)
    : new Date(String(value))
  return Number.isNaN(date.getTime()) ? null : date
}
/** A lead id passed through the vendor as a tag or custom parameter. */
const tagged = (tags: unknown) => {
  if (!tags) return null
  if (Array.isArray(tags)) {
    const entry = tags.find((tag) => /^lead_id[:=]/.test(String(tag?.name ?? tag)))
    return entry ? String(entry?.name ?? entry).replace(/^lead_id[:=]/, '') : null
  }
  if (typeof tags === 'object') return text((tags as Payload).lead_id)
  return null
}

/**
 * Each vendor's webhook fields, mapped to a call. Ringba's body is the JSON
 * its webhook template builds from tokens (docs/calls.md gives the
 * template); Retreaver, CallRail and Invoca post their own field names.
 */
const MAPPERS: Record<CallVendor, (payload: Payload) => Partial<CallInput>> = {
  ringba: (p) => ({
    call_id: text(p.inboundCallId ?? p.callId) ?? undefined,
    caller_number: text(p.inboundPhoneNumber ?? p.callerId),
    tracking_number: text(p.dialedNumber ?? p.number),
    started_at: instant(p.callStartTime ?? p.callDt) ?? undefined,
    duration_seconds: seconds(p.callLengthInSeconds),
    disposition: text(p.disposition ?? p.callStatus),
    recording_url: text(p.recordingUrl),
    campaign: text(p.campaignName),
    lead_id: text(p.lead_id) ?? tagged(p.tags),
  }),
  retreaver: (p) => ({
    call_id: text(p.call_uuid ?? p.uuid) ?? undefined,
    caller_number: text(p.caller_number ?? p.caller),
    tracking_number: text(p.dialed_number ?? p.number),
    started_at: instant(p.start_time ?? p.created_at) ?? undefined,
    duration_seconds: seconds(p.duration),
    disposition: text(p.status ?? p.disposition),
    recording_url: text(p.recording_url),
    campaign: text(p.campaign_name),
    lead_id: tagged(p.tags),
  }),
  callrail: (p) => ({
    call_id: text(p.resource_id ?? p.id) ?? undefined,
    caller_number: text(p.customer_phone_number),
    tracking_number: text(p.tracking_phone_number),
    started_at: instant(p.start_time) ?? undefined,
    duration_seconds: seconds(p.duration),
    disposition: p.answered === undefined ? text(p.call_type) : p.answered ? 'answered' : 'missed',
    recording_url: text(p.recording),
    campaign: text(p.campaign ?? p.source_name),
    lead_id: text(p.custom?.lead_id) ?? tagged(p.tags),
  }),
  invoca: (p) => ({
    call_id: text(p.complete_call_id ?? p.transaction_id) ?? undefined,
    caller_number: text(p.calling_phone_number),
    tracking_number: text(p.destination_phone_number ?? p.mobile),
    started_at: instant(p.start_time_utc ?? p.start_time_local) ?? undefined,
    duration_seconds: seconds(p.duration),
    disposition: text(p.call_result_description_detail ?? p.connect_duration),
    recording_url: text(p.recording),
    campaign: text(p.advertiser_campaign_name),
    lead_id: text(p.lead_id),
  }),
}

export function callFromVendor(vendor: CallVendor, payload: Payload) {
  return MAPPERS[vendor](payload)
}
