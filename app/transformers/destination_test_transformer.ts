import { BaseTransformer } from '@adonisjs/core/transformers'
import type { DestinationTestResult } from '#services/selling/destination_tester'

/**
 * A destination's test post, as POST /v1/buyers/{id}/destinations/{id}/test answers it: the
 * request as sent (secrets masked), the answer, and how the response rules read it.
 */
export default class DestinationTestTransformer extends BaseTransformer<DestinationTestResult> {
  toObject() {
    const result = this.resource
    const request = result.request as {
      method: string
      url: string
      headers: Record<string, string>
      body: string
    } | null
    return {
      request: request
        ? { method: request.method, url: request.url, headers: request.headers, body: request.body }
        : null,
      response: result.response,
      outcome: result.outcome,
      reason: result.reason,
      buyer_lead_id: result.buyer_lead_id,
      price_cents: result.price_cents,
      duration_ms: result.duration_ms,
    }
  }
}
