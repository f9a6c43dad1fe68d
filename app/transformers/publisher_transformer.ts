import type Publisher from '#models/publisher'
import { onboardingOf } from '#services/catalogue/onboarding_service'

/**
 * Expects the `label` relation preloaded and the sandbox lead count
 * selected (PublisherService's look-ups do both); `label` is its slug.
 */
export function publisherToJson(publisher: Publisher) {
  return {
    id: publisher.id,
    slug: publisher.slug,
    name: publisher.name,
    label: publisher.label?.slug ?? null,
    status: publisher.status,
    onboarding: onboardingOf(publisher),
    contact_email: publisher.contactEmail,
    country: publisher.country,
    delivery_methods: publisher.deliveryMethods,
    created_at: publisher.createdAt.toUTC().toISO(),
    updated_at: publisher.updatedAt.toUTC().toISO(),
  }
}
