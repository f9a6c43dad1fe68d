import { BaseTransformer } from '@adonisjs/core/transformers'
import type { CallRow } from '#services/calls/call_service'
import { isoTime } from '#services/sql/timestamps'

/** A call as the API and the lead page show it; the caller's number was never kept. */
export default class CallTransformer extends BaseTransformer<CallRow> {
  toObject() {
    const call = this.resource
    return {
      id: call.id,
      vendor: call.vendor,
      vendor_call_id: call.vendor_call_id,
      environment: call.environment,
      status: call.status,
      lead_id: call.lead_id,
      matched_by: call.matched_by,
      tracking_number: call.tracking_number,
      started_at: isoTime(call.started_at),
      duration_seconds: call.duration_seconds,
      disposition: call.disposition,
      recording_url: call.recording_url,
      campaign: call.campaign,
      created_at: isoTime(call.created_at),
      updated_at: isoTime(call.updated_at),
    }
  }
}
