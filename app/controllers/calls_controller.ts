import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import CallService, { type CallRow } from '#services/calls/call_service'
import { CALL_VENDORS, callFromVendor } from '#services/calls/call_vendors'
import ApiProblem from '#exceptions/api_problem'
import { callValidator, vendorCallValidators } from '#validators/call'

function callToJson(call: CallRow) {
  const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null)
  return {
    id: call.id,
    vendor: call.vendor,
    vendor_call_id: call.vendor_call_id,
    environment: call.environment,
    status: call.status,
    lead_id: call.lead_id,
    matched_by: call.matched_by,
    tracking_number: call.tracking_number,
    started_at: iso(call.started_at),
    duration_seconds: call.duration_seconds,
    disposition: call.disposition,
    recording_url: call.recording_url,
    campaign: call.campaign,
    created_at: iso(call.created_at),
    updated_at: iso(call.updated_at),
  }
}

@inject()
export default class CallsController {
  constructor(protected calls: CallService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('CallPolicy').authorize('create')
    const input = await request.validateUsing(callValidator)
    return this.answer(response, await this.calls.record(principal, 'api', input))
  }

  /** A vendor's own webhook body, mapped from its documented field names. */
  async storeFromVendor({ route, request, response, principal, bouncer }: HttpContext) {
    const vendor = CALL_VENDORS.find((name) => route?.pattern.endsWith(`/calls/${name}`))
    if (!vendor) throw ApiProblem.notFound('call vendor')
    await bouncer.with('CallPolicy').authorize('create')
    // Each vendor's own validator: the union of their types is only read through the mapping.
    const payload: Record<string, any> = await vendorCallValidators[vendor].validate(request.body())
    const mapped = callFromVendor(vendor, payload)
    const input = await callValidator.validate({
      ...Object.fromEntries(Object.entries(mapped).filter(([, value]) => value !== null)),
      ...(mapped.started_at ? { started_at: mapped.started_at.toISOString() } : {}),
    })
    return this.answer(response, await this.calls.record(principal, vendor, input))
  }

  async forLead({ params, principal, bouncer }: HttpContext) {
    await bouncer.with('CallPolicy').authorize('viewList')
    const calls = await this.calls.forLead(principal, params.id)
    return { data: calls.map(callToJson) }
  }

  private answer(
    response: HttpContext['response'],
    result: Awaited<ReturnType<CallService['record']>>
  ) {
    const body = { ...callToJson(result.call), candidates: result.candidates }
    return result.created ? response.created(body) : response.ok(body)
  }
}
