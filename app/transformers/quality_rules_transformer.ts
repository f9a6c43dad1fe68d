import { BaseTransformer } from '@adonisjs/core/transformers'
import type { QualityRules } from '#services/quality/quality_rules'

/** A publisher's quality rules (GET /v1/publishers/{id}/quality-rules): only the rules it has. */
export default class QualityRulesTransformer extends BaseTransformer<QualityRules> {
  toObject() {
    return { ...this.resource }
  }
}
