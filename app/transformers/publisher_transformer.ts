import type Publisher from '#models/publisher'

/** Expects the `label` relation preloaded (the services' look-ups do); `label` is its slug. */
export function publisherToJson(publisher: Publisher) {
  return {
    id: publisher.id,
    slug: publisher.slug,
    name: publisher.name,
    label: publisher.label?.slug ?? null,
    status: publisher.status,
    onboarding: { step: publisher.onboardingStep },
    contact_email: publisher.contactEmail,
    country: publisher.country,
    delivery_methods: publisher.deliveryMethods,
    created_at: publisher.createdAt.toUTC().toISO(),
    updated_at: publisher.updatedAt.toUTC().toISO(),
  }
}
