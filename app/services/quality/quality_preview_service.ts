import { inject } from '@adonisjs/core'
import type Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import TenancyService from '#services/platform/tenancy_service'
import { enterAndScreen } from '#services/quality/duplicate_finder'
import { evaluateLead, publisherContext } from '#services/quality/evaluate_lead'
import { normaliseLead } from '#services/quality/normalise'
import type { QualityRules } from '#services/quality/quality_rules'
import type { LeadInput } from '#services/quality/types'

export type SampleLead = Omit<LeadInput, 'publisher'> & { publisher?: string }

/**
 * "Try a sample lead": what intake would decide for a lead under a
 * publisher's rules, or under rules still being edited, without storing
 * anything. It reads the publisher's leads for duplicates as intake does, in
 * the caller's environment, inside a read-only transaction: Postgres itself
 * refuses a write there, so a preview leaves no lead, audit entry, event,
 * idempotency row or counter behind.
 */
@inject()
export default class QualityPreviewService {
  constructor(protected tenancy: TenancyService) {}

  async preview(
    principal: Principal,
    publisher: Publisher,
    sample: SampleLead,
    rules: QualityRules = publisher.qualityRules ?? {}
  ) {
    if (sample.publisher !== undefined && sample.publisher !== publisher.slug) {
      throw ApiProblem.unprocessable([
        {
          field: 'lead.publisher',
          code: 'publisher_mismatch',
          message: `The sample is tried for publisher "${publisher.slug}": leave "publisher" out or use that slug.`,
        },
      ])
    }
    const lead: LeadInput = { ...sample, publisher: publisher.slug }
    const now = new Date()
    const normalised = normaliseLead(lead, publisher.country)
    const screen = await this.tenancy.runEntered(
      publisher,
      async (trx, schemaName) => {
        // Must come before the transaction's first query.
        await trx.rawQuery('SET TRANSACTION READ ONLY')
        return enterAndScreen(
          trx,
          schemaName,
          publisher,
          rules,
          [normalised],
          principal.environment,
          now
        )
      },
      async (_trx, found) => found
    )
    const evaluation = evaluateLead(lead, {
      ...publisherContext(publisher, rules, now),
      duplicate: screen.isDuplicate(normalised),
      normalised,
    })
    return {
      outcome: evaluation.outcome,
      quality_check: evaluation.quality_check,
      reasons: evaluation.reasons,
    }
  }
}
