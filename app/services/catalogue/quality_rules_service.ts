import { inject } from '@adonisjs/core'
import type Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import AccessLogService from '#services/access/access_log_service'
import { onboardingStepOf } from '#services/catalogue/publisher_service'
import { transaction } from '#services/sql/transaction'
import type { QualityRules } from '#services/quality/quality_rules'

/**
 * A publisher's quality rules: one document, replaced whole on every save,
 * read by the intake pipeline on every lead.
 */
@inject()
export default class QualityRulesService {
  constructor(protected accessLog: AccessLogService) {}

  show(publisher: Publisher): QualityRules {
    return publisher.qualityRules ?? {}
  }

  async replace(principal: Principal, publisher: Publisher, rules: QualityRules) {
    await transaction(async (trx) => {
      publisher.useTransaction(trx)
      publisher.qualityRules = rules
      publisher.onboardingStep = onboardingStepOf(publisher, true)
      await publisher.save()
      await this.accessLog.record(
        principal.actor,
        'quality_rules.updated',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        // Rules hold no personal data; the whole document shows what a lead was held to, and when.
        { details: { rules }, trx }
      )
    })
    return this.show(publisher)
  }
}
