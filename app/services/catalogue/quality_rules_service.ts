import { inject } from '@adonisjs/core'
import canonicalize from 'canonicalize'
import logger from '@adonisjs/core/services/logger'
import type Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import AccessLogService from '#services/access/access_log_service'
import { lockPublisher } from '#services/catalogue/onboarding_service'
import PostingSpecService from '#services/catalogue/posting_spec_service'
import { transaction } from '#services/sql/transaction'
import type { QualityRules } from '#services/quality/quality_rules'

/**
 * A publisher's quality rules: one document, replaced whole on every save,
 * read by the intake pipeline on every lead.
 */
@inject()
export default class QualityRulesService {
  constructor(
    protected accessLog: AccessLogService,
    protected postingSpecs: PostingSpecService
  ) {}

  show(publisher: Publisher): QualityRules {
    return publisher.qualityRules ?? {}
  }

  /**
   * A document that differs from the stored one gets the next version,
   * which voids the publisher's confirmation of the rules: it must see and
   * confirm what its leads are now held to. Saving the same rules again
   * keeps the version. After the commit, a posting spec that changed with the rules gets its
   * next version, announced to the publisher.
   */
  async replace(principal: Principal, publisher: Publisher, rules: QualityRules) {
    await transaction(async (trx) => {
      await lockPublisher(trx, publisher)
      if (canonicalize(publisher.qualityRules ?? {}) !== canonicalize(rules)) {
        publisher.qualityRulesVersion += 1
      }
      publisher.qualityRules = rules
      await publisher.save()
      await this.accessLog.record(
        principal.actor,
        'quality_rules.updated',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        // Rules hold no personal data; the whole document shows what a lead was held to, and when.
        { details: { rules, rules_version: publisher.qualityRulesVersion }, trx }
      )
    })
    // The rules are saved: a spec version that fails here is made by the next read instead.
    await this.postingSpecs.refresh(publisher).catch((error: Error) => {
      logger.warn({ publisher_id: publisher.id, err: error.message }, 'posting spec not refreshed')
    })
    return this.show(publisher)
  }
}
