import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import CallService from '#services/calls/call_service'
import CallTransformer from '#transformers/call_transformer'
import { CALL_VENDORS, callFromVendor } from '#services/calls/call_vendors'
import ApiProblem from '#exceptions/api_problem'
import { CALLRAIL_FIELDS, callValidator, vendorCallValidators } from '#validators/call'
import { verifyCallrailRequest } from '#services/calls/callrail_signature'

@inject()
export default class CallsController {
  constructor(protected calls: CallService) {}

  async store(ctx: HttpContext) {
    const { request, principal, bouncer } = ctx
    await bouncer.with('CallPolicy').authorize('create')
    const input = await request.validateUsing(callValidator)
    return this.answer(ctx, await this.calls.record(principal, 'api', input))
  }

  /** A vendor's own webhook body, mapped from its documented field names. */
  async storeFromVendor(ctx: HttpContext) {
    const { route, request, principal, bouncer } = ctx
    const vendor = CALL_VENDORS.find((name) => route?.pattern.endsWith(`/calls/${name}`))
    if (!vendor) throw ApiProblem.notFound('call vendor')
    await bouncer.with('CallPolicy').authorize('create')
    let body = request.body()
    const signed =
      vendor === 'callrail' &&
      (await verifyCallrailRequest(principal, request.raw() ?? '', request.header('signature')))
    if (signed) {
      body = Object.fromEntries(CALLRAIL_FIELDS.filter((f) => f in body).map((f) => [f, body[f]]))
    }
    // Each vendor's own validator: the union of their types is only read through the mapping.
    const payload: Record<string, any> = await vendorCallValidators[vendor].validate(body)
    const mapped = callFromVendor(vendor, payload)
    const input = await callValidator.validate({
      ...Object.fromEntries(Object.entries(mapped).filter(([, value]) => value !== null)),
      ...(mapped.started_at ? { started_at: mapped.started_at.toISOString() } : {}),
    })
    return this.answer(ctx, await this.calls.record(principal, vendor, input))
  }

  async forLead({ params, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('CallPolicy').authorize('viewList')
    const calls = await this.calls.forLead(principal, params.id)
    return { data: await serialize(CallTransformer.transform(calls)) }
  }

  private async answer(
    { response, serialize }: HttpContext,
    result: Awaited<ReturnType<CallService['record']>>
  ) {
    const body = {
      ...(await serialize(CallTransformer.transform(result.call))),
      candidates: result.candidates,
    }
    return result.created ? response.created(body) : response.ok(body)
  }
}
