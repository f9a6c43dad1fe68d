import { BaseTransformer } from '@adonisjs/core/transformers'
import type Publisher from '#models/publisher'
import { onboardingOf } from '#services/catalogue/onboarding_service'
import { acceptanceRate, type LeadCounts } from '#services/leads/lead_counts'
import { isoTime } from '#services/sql/timestamps'

const NO_LEADS: LeadCounts = { today: 0, accepted_today: 0, rejected_today: 0, flagged_waiting: 0 }

/**
 * Expects the `label` relation preloaded and the sandbox lead count
 * selected (PublisherService's look-ups do both); `label` is its slug.
 */
export default class PublisherTransformer extends BaseTransformer<Publisher> {
  /** `counts`: today's live lead figures of each publisher (countsByPublisher). */
  constructor(
    publisher: Publisher,
    protected counts?: ReadonlyMap<string, LeadCounts>
  ) {
    super(publisher)
  }

  toObject() {
    const publisher = this.resource
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
      created_at: isoTime(publisher.createdAt),
      updated_at: isoTime(publisher.updatedAt),
    }
  }

  /** A publisher's own home: the label it belongs to, by name. */
  withLabelName() {
    return { ...this.toObject(), label_name: this.resource.label?.name ?? null }
  }

  /** The operator's list and page of publishers: today's figures and the acceptance rate. */
  withFigures() {
    const counts = this.counts?.get(this.resource.id) ?? NO_LEADS
    return {
      ...this.withLabelName(),
      leads: { ...counts, acceptance_rate: acceptanceRate(counts) },
    }
  }

  /** A publisher as a picker's option, by id. */
  toChoice() {
    return { value: this.resource.id, label: this.resource.name }
  }
}
