import type Publisher from '#models/publisher'
import type { DeliveryMethod } from '#models/publisher'
import ApiProblem from '#exceptions/api_problem'

/** How a lead arrived; lists filter on it. */
export const CHANNELS = ['api', 'request', 'form', 'upload'] as const
export type Channel = (typeof CHANNELS)[number]

const METHOD_OF: Record<Channel, DeliveryMethod> = {
  api: 'api',
  request: 'api',
  form: 'form',
  upload: 'upload',
}

/**
 * Intake takes a lead only by a route its publisher has enabled. A
 * publisher that has chosen nothing yet is still onboarding and may try the
 * API (its sandbox key is how it tests); forms and uploads must be chosen.
 */
export function deliveryMethodEnabled(publisher: Publisher, channel: Channel) {
  const method = METHOD_OF[channel]
  if (publisher.deliveryMethods.includes(method)) return true
  return method === 'api' && publisher.deliveryMethods.length === 0
}

export function assertDeliveryMethod(publisher: Publisher, channel: Channel) {
  if (deliveryMethodEnabled(publisher, channel)) return
  const method = METHOD_OF[channel]
  throw ApiProblem.forbidden(
    'delivery_method_not_enabled',
    `Publisher "${publisher.slug}" does not deliver by ${method}: add "${method}" to its delivery methods ` +
      '(PATCH /v1/publishers/{id} `delivery_methods`, or "How you deliver" in the publisher portal).'
  )
}

/**
 * A request's consent as the specification gives it (`POST /v1/requests`: "text and timestamp
 * in the body"): the wording and the moment the applicant agreed are its yes, so `given` need
 * not be sent; a `given: false` stays a no.
 */
export function requestConsent<Input extends { consent?: Record<string, unknown> | null }>(
  input: Input
): Input {
  const consent = input.consent
  if (!consent || consent.given !== undefined || !consent.text || !consent.timestamp) return input
  return { ...input, consent: { ...consent, given: true } }
}
